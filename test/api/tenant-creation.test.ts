/**
 * Tenant creation as the ops CLI and the bootstrap run it (`createTenant`, one transaction):
 * a taken slug or an email domain another tenant holds is a conflict that writes nothing; an
 * admin without a password is made (it signs in another way) and named workspaces are kept.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../shared/identity/tenants';
import { getTenantBySlug, getUserByEmail } from '../../shared/store/identity-items';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient } from '../support/http-client';
import { PASSWORD } from '../support/identity-fixtures';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const suffix = randomBytes(4).toString('hex');
const base = { name: 'Acme', adminPassword: PASSWORD };

beforeAll(async () => {
  host = await startTestHost();
  http = api(host.url);
});
afterAll(async () => {
  await host?.close();
});

describe('tenant creation', () => {
  it('a taken slug is a conflict that writes nothing', async () => {
    const slug = `taken-${suffix}`;
    await createTenant(host.deps, { ...base, slug, emailDomains: [`first-${suffix}.example`], adminEmail: `admin@first-${suffix}.example` });
    const second = createTenant(host.deps, { ...base, slug, emailDomains: [`second-${suffix}.example`], adminEmail: `admin@second-${suffix}.example` });
    await expect(second).rejects.toMatchObject({ code: 'conflict', message: `The tenant slug ${slug} is taken` });
    expect(await host.deps.table.get(keys.emailDomain(`second-${suffix}.example`))).toBeUndefined();
    expect((await getTenantBySlug(host.deps, slug))?.email_domains).toEqual([`first-${suffix}.example`]);
  });

  it('an email domain another tenant holds is a conflict that writes nothing', async () => {
    const held = `held-${suffix}.example`;
    await createTenant(host.deps, { ...base, slug: `holder-${suffix}`, emailDomains: [held], adminEmail: `admin@${held}` });
    const claim = createTenant(host.deps, { ...base, slug: `claimer-${suffix}`, emailDomains: [`free-${suffix}.example`, held], adminEmail: `admin@free-${suffix}.example` });
    await expect(claim).rejects.toMatchObject({ code: 'conflict', message: 'An email domain is already claimed by another tenant' });
    expect(await getTenantBySlug(host.deps, `claimer-${suffix}`)).toBeUndefined();
    expect(await host.deps.table.get(keys.emailDomain(`free-${suffix}.example`))).toBeUndefined();
  });

  it('an admin without a password is made without one: a password login is refused', async () => {
    const domain = `nopass-${suffix}.example`;
    const created = await createTenant(host.deps, { name: 'No password', slug: `nopass-${suffix}`, emailDomains: [domain], adminEmail: `admin@${domain}`, adminPassword: undefined, workspaceName: 'Operations' });
    expect(created.workspace.name).toBe('Operations');
    const admin = await getUserByEmail(host.deps, created.tenant.id, `admin@${domain}`);
    expect(admin).toMatchObject({ id: created.admin.id, tenant_admin: true });
    expect(admin).not.toHaveProperty('password_hash');
    const res = await http.request('POST', '/v1/auth/login', { body: { email: `admin@${domain}`, password: PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
  });
});
