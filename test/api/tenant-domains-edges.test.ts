/**
 * Email domains at their edges (`/v1/tenants/{id}/domains`, the operator's verification):
 * the per-tenant cap, what a failed check reports of the TXT values it found, a routing
 * pointer left without a verified record (it routes nothing and may be taken over), and the
 * races of two writers, reproduced deterministically by running the other writer's change
 * just before the request's own transaction.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyEmailDomainAsOperator, MAX_DOMAINS_PER_TENANT } from '../../shared/identity/email-domains';
import { keys } from '../../shared/store/keys';
import { startDnsServer, type TestDnsServer } from '../support/dns-server';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';
import { beforeNextTransaction } from '../support/races';

let dnsServer: TestDnsServer;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let other: TestTenant;
let adminToken: string;
let otherAdminToken: string;

const RECHECK_SECONDS = 3600;
const suffix = randomBytes(4).toString('hex');

interface DomainView { domain: string; status: string; method: string; verification: { value: string }; checked_at: string | null; last_failure: string | null }
interface Problem { code: string; detail: string }

const domainsPath = (t: TestTenant = tenant) => `/v1/tenants/${t.tenantId}/domains`;
const challenge = (domain: string) => `_tessera-challenge.${domain}`;
const verify = (domain: string, token = adminToken, t: TestTenant = tenant) => http.request('POST', `${domainsPath(t)}/${domain}/verify`, { token });
const discover = (email: string) => http.request('GET', `/v1/auth/discover?email=${encodeURIComponent(email)}`);

async function listDomains(token = adminToken, t: TestTenant = tenant): Promise<DomainView[]> {
  const res = await http.request('GET', domainsPath(t), { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { domains: DomainView[] }).domains;
}

async function addDomain(domain: string, token = adminToken, t: TestTenant = tenant): Promise<DomainView> {
  const res = await http.request('POST', domainsPath(t), { token, body: { domain } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as DomainView;
}

async function eventsFor(tenantId: string, action: string, domain: string) {
  return (await identityAuditEvents(host.deps, tenantId)).filter((e) => e.action === action && e.target_id === domain);
}

beforeAll(async () => {
  dnsServer = await startDnsServer();
  host = await startTestHost({
    clock,
    env: { TESSERA_DNS_RESOLVER: dnsServer.address, TESSERA_DNS_TIMEOUT_MS: '400', TESSERA_DOMAIN_RECHECK_SECONDS: String(RECHECK_SECONDS) },
  });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  otherAdminToken = (await login(http, clock, other.admin.email)).accessToken;
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await host?.close();
  await dnsServer?.close();
});

describe('email domains at their edges', () => {
  it('a tenant holds at most 50 domains: the next is a 409 that adds nothing', async () => {
    const capped = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const token = (await login(http, clock, capped.admin.email)).accessToken;
    // The tenant's own domain from its creation counts.
    for (let i = 1; i < MAX_DOMAINS_PER_TENANT; i++) await addDomain(`cap-${i}-${suffix}.example`, token, capped);
    expect(await listDomains(token, capped)).toHaveLength(MAX_DOMAINS_PER_TENANT);
    const refused = await http.request('POST', domainsPath(capped), { token, body: { domain: `cap-over-${suffix}.example` } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/at most 50 domains/) });
    expect((await listDomains(token, capped)).map((d) => d.domain)).not.toContain(`cap-over-${suffix}.example`);
    expect(await eventsFor(capped.tenantId, 'domain_added', `cap-over-${suffix}.example`)).toHaveLength(0);
  });

  it('a failed check names what it found: one value, or the first five shortened to 80 characters', async () => {
    const domain = `found-${suffix}.example`;
    await addDomain(domain);
    dnsServer.zone.set(challenge(domain), ['v=spf1 -all']);
    const one = await verify(domain);
    expect(one.status, JSON.stringify(one.body)).toBe(409);
    expect((one.body as Problem).detail).toContain(`found TXT record at ${challenge(domain)} with other value: "v=spf1 -all"`);

    const long = `tessera-verification=${'x'.repeat(100)}`;
    dnsServer.zone.set(challenge(domain), [long, 'b', 'c', 'd', 'e', 'f-not-shown']);
    const many = await verify(domain);
    expect(many.status, JSON.stringify(many.body)).toBe(409);
    const detail = (many.body as Problem).detail;
    expect(detail).toContain(`found TXT records at ${challenge(domain)} with other values: "${long.slice(0, 80)}…", "b", "c", "d", "e", …`);
    expect(detail).not.toContain('f-not-shown');
    expect(detail).not.toContain(long);
    expect((await listDomains()).find((d) => d.domain === domain)).toMatchObject({ status: 'pending', last_failure: expect.stringContaining(', …') });
  });

  it('a routing pointer without a verified record routes nothing, and the tenant that proves the domain takes it over', async () => {
    const domain = `stale-${suffix}.example`;
    // Left by an IdP claim of the other tenant from before verification existed: no record behind it.
    await host.deps.table.put({ Item: { ...keys.emailDomain(domain), tenant_id: other.tenantId } });
    expect((await discover(`someone@${domain}`)).status).toBe(404);
    const added = await addDomain(domain);
    dnsServer.zone.set(challenge(domain), [added.verification.value]);
    const verified = await verify(domain);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ domain, status: 'verified' });
    expect(await host.deps.table.get(keys.emailDomain(domain))).toMatchObject({ tenant_id: tenant.tenantId });
    expect((await discover(`someone@${domain}`)).body).toMatchObject({ tenant: tenant.slug });
    expect(await eventsFor(tenant.tenantId, 'domain_verified', domain)).toHaveLength(1);
  });

  it('the operator verifies a domain once, never another tenant\'s, and may take over a stale pointer', async () => {
    const before = await eventsFor(tenant.tenantId, 'domain_verified', tenant.domain);
    await verifyEmailDomainAsOperator(host.deps, tenant.tenantId, tenant.domain);
    expect(await eventsFor(tenant.tenantId, 'domain_verified', tenant.domain)).toHaveLength(before.length);

    await expect(verifyEmailDomainAsOperator(host.deps, tenant.tenantId, other.domain)).rejects.toThrow(/verified by another tenant/);
    expect((await listDomains()).map((d) => d.domain)).not.toContain(other.domain);
    expect(await host.deps.table.get(keys.emailDomain(other.domain))).toMatchObject({ tenant_id: other.tenantId });

    const domain = `operator-stale-${suffix}.example`;
    await host.deps.table.put({ Item: { ...keys.emailDomain(domain), tenant_id: other.tenantId } });
    await verifyEmailDomainAsOperator(host.deps, tenant.tenantId, domain);
    expect((await listDomains()).find((d) => d.domain === domain)).toMatchObject({ status: 'verified', method: 'operator' });
    expect((await discover(`someone@${domain}`)).body).toMatchObject({ tenant: tenant.slug });
  });

  it('the operator loses to another tenant that verifies the domain meanwhile', async () => {
    const domain = `operator-race-${suffix}.example`;
    beforeNextTransaction(host.deps, () => verifyEmailDomainAsOperator(host.deps, other.tenantId, domain));
    await expect(verifyEmailDomainAsOperator(host.deps, tenant.tenantId, domain)).rejects.toThrow(/verified by another tenant/);
    expect((await listDomains()).map((d) => d.domain)).not.toContain(domain);
    expect((await discover(`someone@${domain}`)).body).toMatchObject({ tenant: other.slug });
  });

  it('adding a domain the same tenant adds meanwhile is a 409, audited once', async () => {
    const domain = `add-race-${suffix}.example`;
    beforeNextTransaction(host.deps, () => addDomain(domain));
    const res = await http.request('POST', domainsPath(), { token: adminToken, body: { domain } });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect((res.body as Problem).detail).toMatch(/already has the domain/);
    expect((await listDomains()).filter((d) => d.domain === domain)).toHaveLength(1);
    expect(await eventsFor(tenant.tenantId, 'domain_added', domain)).toHaveLength(1);
  });

  it('verifying a domain another tenant proves meanwhile is a 409: theirs routes, ours stays pending', async () => {
    const domain = `verify-race-${suffix}.example`;
    const ours = await addDomain(domain);
    const theirs = await addDomain(domain, otherAdminToken, other);
    dnsServer.zone.set(challenge(domain), [ours.verification.value, theirs.verification.value]);
    beforeNextTransaction(host.deps, async () => expect((await verify(domain, otherAdminToken, other)).status).toBe(200));
    const res = await verify(domain);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect((res.body as Problem).detail).toMatch(/verified by another tenant/);
    expect((await listDomains()).find((d) => d.domain === domain)).toMatchObject({ status: 'pending' });
    expect((await discover(`someone@${domain}`)).body).toMatchObject({ tenant: other.slug });
    expect(await eventsFor(tenant.tenantId, 'domain_verified', domain)).toHaveLength(0);
  });

  it('verifying a domain that changes meanwhile is a 409 that writes nothing', async () => {
    const domain = `changed-${suffix}.example`;
    const added = await addDomain(domain);
    dnsServer.zone.set(challenge(domain), [added.verification.value]);
    // A parallel failed check moves the record on (another value was published for a moment).
    beforeNextTransaction(host.deps, () => host.deps.table.update({
      Key: keys.tenantDomain(tenant.tenantId, domain),
      UpdateExpression: 'SET updated_at = :later, last_failure = :found',
      ExpressionAttributeValues: { ':later': new Date(Date.now() + 60_000).toISOString(), ':found': 'elsewhere' },
    }));
    const res = await verify(domain);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect((res.body as Problem).detail).toMatch(/changed meanwhile/);
    expect((await listDomains()).find((d) => d.domain === domain)).toMatchObject({ status: 'pending', last_failure: 'elsewhere' });
    expect(await host.deps.table.get(keys.emailDomain(domain))).toBeUndefined();
    expect((await discover(`someone@${domain}`)).status).toBe(404);
  });

  it('a failed check of a domain deleted meanwhile leaves the delete standing', async () => {
    const domain = `gone-${suffix}.example`;
    await addDomain(domain);
    beforeNextTransaction(host.deps, () => http.request('DELETE', `${domainsPath()}/${domain}`, { token: adminToken }));
    const res = await verify(domain);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect((res.body as Problem).detail).toMatch(/is not verified/);
    expect((await listDomains()).map((d) => d.domain)).not.toContain(domain);
    expect(await eventsFor(tenant.tenantId, 'domain_verification_failed', domain)).toHaveLength(0);
    expect(await eventsFor(tenant.tenantId, 'domain_removed', domain)).toHaveLength(1);
  });

  it('deleting a domain deleted meanwhile is a 409, audited once', async () => {
    const domain = `delete-race-${suffix}.example`;
    await addDomain(domain);
    beforeNextTransaction(host.deps, () => host.deps.table.delete({ Key: keys.tenantDomain(tenant.tenantId, domain) }));
    const res = await http.request('DELETE', `${domainsPath()}/${domain}`, { token: adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect((res.body as Problem).detail).toMatch(/changed meanwhile/);
    expect(await eventsFor(tenant.tenantId, 'domain_removed', domain)).toHaveLength(0);
  });
});
