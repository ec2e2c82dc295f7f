import { envelopeOf } from '../../shared/crypto/envelope';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listIdentityAuditEvents } from '../../shared/audit/audit-log';
import { encryptionContext } from '../../shared/crypto/encryption-contexts';
import { keys } from '../../shared/store/keys';
import type { IdpConfigRecord } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, verifyDomainAsOperator, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { idpMetadataXml, signingIdentity, type SigningIdentity } from '../support/saml-idp';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let other: TestTenant;
let adminToken: string;
let viewerToken: string;
let wsAdminToken: string;
let idpKey: SigningIdentity;

const SECRET = 'client-secret-that-must-never-leave-9f3a';

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  [tenant, other] = await Promise.all([createTestTenant(host.deps, { mfaMode: 'OFF' }), createTestTenant(host.deps, { mfaMode: 'OFF' })]);
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, adminToken, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  await createUser(http, adminToken, { email: `wsadmin@${tenant.domain}`, role: 'admin' });
  viewerToken = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  wsAdminToken = (await login(http, clock, `wsadmin@${tenant.domain}`)).accessToken;
  idpKey = signingIdentity();
  // An IdP configuration lists only verified domains: the second one is verified as the operator would.
  await verifyDomainAsOperator(host.deps, tenant.tenantId, `sso-${tenant.slug}.example.org`);
});
afterAll(() => host?.close());

const path = (t: TestTenant = tenant) => `/v1/tenants/${t.tenantId}/idp`;
const oidcBody = (extra: Record<string, unknown> = {}) => ({
  provider_type: 'oidc',
  issuer: 'https://idp.example.com',
  client_id: 'tessera-client',
  client_secret: SECRET,
  email_domains: [tenant.domain, `sso-${tenant.slug}.example.org`],
  allowed_redirect_uris: ['https://console.example.com/sso/done'],
  active: true,
  ...extra,
});

async function rawItem(): Promise<Record<string, unknown> | undefined> {
  const out = await host.documents.send(new GetCommand({ TableName: host.config.tableName, Key: keys.idpConfig(tenant.tenantId) }));
  return out.Item;
}

describe('IdP configuration', () => {
  it('refuses a viewer and a workspace admin (403, before validation) and a path naming another tenant (403)', async () => {
    expect((await http.request('POST', path(), { token: viewerToken, body: { nonsense: 1 } })).status).toBe(403);
    expect((await http.request('GET', path(), { token: viewerToken })).status).toBe(403);
    expect((await http.request('POST', path(), { token: wsAdminToken, body: oidcBody() })).status).toBe(403);
    const foreign = await http.request('POST', path(other), { token: adminToken, body: oidcBody({ email_domains: [] }) });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'forbidden' });
    expect((await http.request('GET', path(other), { token: adminToken })).status).toBe(403);
    expect((await http.request('DELETE', path(other), { token: adminToken })).status).toBe(403);
    expect((await http.request('GET', path(), { token: adminToken })).status).toBe(404);
    expect((await http.request('POST', path(), { token: undefined, body: oidcBody() })).status).toBe(401);
  });

  it('validates strictly: unknown fields, missing OIDC settings, bad URLs, bad metadata, unknown workspace', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [oidcBody({ surprise: true }), 'surprise'],
      [oidcBody({ issuer: undefined }), 'issuer'],
      [oidcBody({ client_secret: undefined }), 'client_secret'],
      [oidcBody({ issuer: 'http://idp.example.com' }), 'issuer'],
      [oidcBody({ issuer: 'not a url' }), 'issuer'],
      [oidcBody({ allowed_redirect_uris: [] }), 'allowed_redirect_uris'],
      [oidcBody({ allowed_redirect_uris: ['https://x.example.com/#frag'] }), 'allowed_redirect_uris.0'],
      [oidcBody({ email_domains: ['not a domain'] }), 'email_domains.0'],
      [oidcBody({ email_domains: ['Gmail.com'] }), 'email_domains.0'],
      [oidcBody({ email_domains: [tenant.domain, 'outlook.com'] }), 'email_domains.1'],
      [oidcBody({ default_role: 'owner' }), 'default_role'],
      [oidcBody({ active: undefined }), 'active'],
      [{ ...oidcBody(), provider_type: 'saml' }, 'saml_metadata'],
      [{ ...oidcBody(), provider_type: 'saml', saml_metadata: '<nope/>' }, 'saml_metadata'],
      [oidcBody({ default_workspace_id: 'ws_0000000000000000000000000' }), 'default_workspace_id'],
    ];
    for (const [body, field] of cases) {
      const res = await http.request('POST', path(), { token: adminToken, body });
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(400);
      expect((res.body as { errors: { path: string }[] }).errors.map((e) => e.path), field).toContain(field);
    }
    expect(await rawItem()).toBeUndefined();
  });

  it('creates an OIDC configuration: the secret is never answered, stored only encrypted under the tenant context', async () => {
    const res = await http.request('POST', path(), { token: adminToken, body: oidcBody() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      tenant_id: tenant.tenantId, provider_type: 'oidc', active: true, issuer: 'https://idp.example.com', client_id: 'tessera-client',
      client_secret_set: true, saml: null, default_role: 'viewer', default_workspace_id: tenant.workspaceId,
      service_provider: { redirect_uri: `${host.url}/v1/auth/sso/${tenant.slug}/callback` },
    });
    expect(res.text).not.toContain(SECRET);
    expect(res.body).not.toHaveProperty('client_secret');

    const item = await rawItem();
    expect(JSON.stringify(item)).not.toContain(SECRET);
    const record = item as unknown as IdpConfigRecord;
    expect(await (await envelopeOf(host.deps)).decrypt(record.oidc!.client_secret_encrypted, encryptionContext('idp_client_secret', { tenant_id: tenant.tenantId }))).toBe(SECRET);
    await expect((await envelopeOf(host.deps)).decrypt(record.oidc!.client_secret_encrypted, encryptionContext('idp_client_secret', { tenant_id: other.tenantId }))).rejects.toThrow();

    const read = await http.request('GET', path(), { token: adminToken });
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(SECRET);
    expect(read.body).toMatchObject({ client_secret_set: true, email_domains: [tenant.domain, `sso-${tenant.slug}.example.org`] });

    expect((await http.request('POST', path(), { token: adminToken, body: oidcBody() })).status).toBe(409);
  });

  it('a domain verified by another tenant is refused (409) and nothing changes', async () => {
    const res = await http.request('PATCH', path(), { token: adminToken, body: { email_domains: [tenant.domain, other.domain] } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', detail: `The domain ${other.domain} is verified by another tenant` });
    expect(((await http.request('GET', path(), { token: adminToken })).body as { email_domains: string[] }).email_domains).not.toContain(other.domain);
  });

  it('adds SAML beside OIDC and makes it the active one; the stored secret is kept', async () => {
    const metadata = idpMetadataXml({ entityId: 'https://saml-idp.example.com/entity', ssoUrl: 'https://saml-idp.example.com/sso', certBody: idpKey.certBody });
    const res = await http.request('PATCH', path(), { token: adminToken, body: { provider_type: 'saml', saml_metadata: metadata, default_role: 'connector_builder' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      provider_type: 'saml', client_secret_set: true, issuer: 'https://idp.example.com', default_role: 'connector_builder',
      saml: { entity_id: 'https://saml-idp.example.com/entity', sso_url: 'https://saml-idp.example.com/sso', want_authn_requests_signed: false },
    });
    expect((res.body as { saml: { signing_certificate_sha256: string[] } }).saml.signing_certificate_sha256).toHaveLength(1);
    expect(res.text).not.toContain(SECRET);

    // Tessera's own SAML signing key was made for the tenant: stored encrypted, never answered.
    const stored = (await rawItem()) as unknown as IdpConfigRecord;
    expect(stored.saml!.sp_certificate).toMatch(/^[A-Za-z0-9+/=]{500,}$/);
    expect(JSON.stringify(stored)).not.toContain('PRIVATE KEY');
    expect(res.text).not.toContain('sp_private_key');

    const rotated = await http.request('PATCH', path(), { token: adminToken, body: { client_secret: 'a-new-secret-value-1234' } });
    expect(rotated.status).toBe(200);
    const record = (await rawItem()) as unknown as IdpConfigRecord;
    expect(await (await envelopeOf(host.deps)).decrypt(record.oidc!.client_secret_encrypted, encryptionContext('idp_client_secret', { tenant_id: tenant.tenantId }))).toBe('a-new-secret-value-1234');
    expect((await http.request('PATCH', path(), { token: adminToken, body: {} })).status).toBe(400);
  });

  it('will not send the stored secret to another issuer or for another client: a new one is required', async () => {
    const before = await rawItem();
    for (const change of [{ issuer: 'https://attacker.example' }, { client_id: 'another-client' }]) {
      const res = await http.request('PATCH', path(), { token: adminToken, body: change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'client_secret' }] });
    }
    expect(await rawItem()).toEqual(before);
    const moved = await http.request('PATCH', path(), { token: adminToken, body: { issuer: 'https://idp2.example.com', client_secret: 'the-secret-of-the-new-issuer' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ issuer: 'https://idp2.example.com', client_secret_set: true });
    // The same issuer and client keep the stored secret.
    expect((await http.request('PATCH', path(), { token: adminToken, body: { issuer: 'https://idp2.example.com', allowed_redirect_uris: ['https://console.example.com/sso/done'] } })).status).toBe(200);
  });

  it('audits every change to the identity log without the secret', async () => {
    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    const actions = events.items.filter((e) => e.action.startsWith('idp_config_')).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['idp_config_created', 'idp_config_updated']));
    expect(JSON.stringify(events.items)).not.toContain(SECRET);
    expect(JSON.stringify(events.items)).not.toContain('a-new-secret-value-1234');
    expect(events.items.find((e) => e.action === 'idp_config_created')).toMatchObject({ actor_id: tenant.admin.id, target_id: tenant.tenantId });
  });

  it('delete leaves the tenant its verified domains: they route to password sign-in', async () => {
    const listed = `sso-${tenant.slug}.example.org`;
    expect((await http.request('PATCH', path(), { token: adminToken, body: { provider_type: 'oidc' } })).status).toBe(200);
    expect((await http.request('GET', `/v1/auth/discover?email=someone@${listed}`)).body).toMatchObject({ tenant: tenant.slug, methods: ['sso'] });
    const res = await http.request('DELETE', path(), { token: adminToken });
    expect(res.status).toBe(204);
    expect(await rawItem()).toBeUndefined();
    for (const domain of [listed, tenant.domain]) {
      expect((await http.request('GET', `/v1/auth/discover?email=someone@${domain}`)).body).toMatchObject({ tenant: tenant.slug, methods: ['password'], sso: null });
    }
    expect((await http.request('DELETE', path(), { token: adminToken })).status).toBe(404);
    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.some((e) => e.action === 'idp_config_deleted')).toBe(true);
  });

  it('needs a recent MFA when the tenant policy lists UPDATE_IDP_CONFIG', async () => {
    const strict = await createTestTenant(host.deps, { mfaMode: 'REQUIRED' });
    const token = (await login(http, clock, strict.admin.email)).accessToken;
    const body = { ...oidcBody(), email_domains: [] };
    clock.advance(11 * 60);
    const stale = await http.request('POST', path(strict), { token, body });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ code: 'mfa_required' });
    const fresh = (await login(http, clock, strict.admin.email)).accessToken;
    expect((await http.request('POST', path(strict), { token: fresh, body })).status).toBe(201);
  });
});
