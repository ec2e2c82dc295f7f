/**
 * Email domains proven by DNS (`/v1/tenants/{id}/domains`), against a real DNS server on
 * loopback (dns2) that the host asks through `TESSERA_DNS_RESOLVER`: only a domain whose
 * `_tessera-challenge` TXT record holds the tenant's value routes discovery, login and
 * just-in-time SSO users, or may be listed in the IdP's `email_domains`; a verified domain is
 * re-checked on use and dropped when the record is gone; nobody else takes it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser';
import { startDnsServer, type TestDnsServer } from '../support/dns-server';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { ssoErrorOf } from '../support/sso-answers';
import { startTestHost, type TestHost } from '../support/test-host';

let dnsServer: TestDnsServer;
/** The zone the DNS server answers from (see test/support/dns-server.ts). */
let zone: TestDnsServer['zone'];

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let other: TestTenant;
let adminToken: string;
let otherAdminToken: string;
let viewerToken: string;
let wsAdminToken: string;
let idp: LocalOidcProvider;

const RECHECK_SECONDS = 3600;
const suffix = randomBytes(4).toString('hex');
const ACME = `acme-${suffix}.example`;
const CLIENT_SECRET = 'oidc-client-secret-for-domains-test-1';
const BACK = 'https://console.example.com/sso/done';

interface DomainView { domain: string; status: string; method: string; verification: { type: string; name: string; value: string }; verified_at: string | null; checked_at: string | null; last_failure: string | null }
interface Problem { code: string; detail: string; errors?: { path: string; message: string }[] }

const domainsPath = (t: TestTenant = tenant) => `/v1/tenants/${t.tenantId}/domains`;
const challenge = (domain: string) => `_tessera-challenge.${domain}`;

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

const verify = (domain: string, token = adminToken, t: TestTenant = tenant) => http.request('POST', `${domainsPath(t)}/${domain}/verify`, { token });
const discover = (email: string) => http.request('GET', `/v1/auth/discover?email=${encodeURIComponent(email)}`);

async function eventsOf(action: string): Promise<{ action: string; target_id: string; actor_id: string | null; payload: Record<string, unknown> }[]> {
  const res = await http.request('GET', `/v1/tenants/${tenant.tenantId}/audit-events?limit=100&action=${action}`, { token: adminToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { audit_events: { action: string; target_id: string; actor_id: string | null; payload: Record<string, unknown> }[] }).audit_events;
}

/** Moves the clock past the re-check interval; the admins sign in again (their tokens expired meanwhile). */
async function pastRecheckInterval(): Promise<void> {
  clock.advance(RECHECK_SECONDS + 1);
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  otherAdminToken = (await login(http, clock, other.admin.email)).accessToken;
}

/** A full OIDC login of `account` at the test IdP, as a browser does it, up to Tessera's final redirect. */
async function ssoLogin(account: string) {
  const start = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
  expect(start.status, start.text).toBe(302);
  const browser = new Browser();
  const auth = await browser.get(start.headers.location!);
  expect(auth.location, auth.text).toMatch(/\/interaction\//);
  await browser.get(auth.location!);
  const submitted = await browser.postForm(auth.location!, { login: account, amr: 'pwd', acr: 'urn:test:loa:1' });
  const resumed = await browser.get(submitted.location!);
  expect(resumed.location, resumed.text).toContain(`/v1/auth/sso/${tenant.slug}/callback`);
  return http.request('GET', resumed.location!);
}

beforeAll(async () => {
  dnsServer = await startDnsServer();
  zone = dnsServer.zone;
  host = await startTestHost({
    clock,
    env: { TESSERA_DNS_RESOLVER: dnsServer.address, TESSERA_DNS_TIMEOUT_MS: '400', TESSERA_DOMAIN_RECHECK_SECONDS: String(RECHECK_SECONDS) },
  });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  otherAdminToken = (await login(http, clock, other.admin.email)).accessToken;
  await createUser(http, adminToken, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  await createUser(http, adminToken, { email: `wsadmin@${tenant.domain}`, role: 'admin' });
  viewerToken = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  wsAdminToken = (await login(http, clock, `wsadmin@${tenant.domain}`)).accessToken;
  idp = await startOidcProvider({
    clients: [{ client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [`${host.url}/v1/auth/sso/${tenant.slug}/callback`] }],
    accounts: { alice: { email: `alice@${ACME}` }, bob: { email: `bob@${ACME}` } },
  });
});
afterAll(async () => {
  await idp?.close();
  await host?.close();
  await dnsServer?.close();
});

describe('email domains proven by DNS', () => {
  it('a tenant cannot route a domain it has not proven: the IdP refuses it, discovery does not route it', async () => {
    const victim = `victim-${suffix}.example`;
    const body = { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [victim], allowed_redirect_uris: [BACK], active: true };
    const created = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body });
    expect(created.status, JSON.stringify(created.body)).toBe(409);
    expect((created.body as Problem).detail).toMatch(new RegExp(`${victim} is not a verified domain of this tenant`));
    expect((await discover(`ceo@${victim}`)).status).toBe(404);
    // With a configuration in place, a PATCH naming the victim is refused the same way.
    const made = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { ...body, email_domains: [tenant.domain] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const patched = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { email_domains: [tenant.domain, victim] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(409);
    expect((await http.request('GET', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken })).body).toMatchObject({ email_domains: [tenant.domain] });
    expect((await discover(`ceo@${victim}`)).status).toBe(404);
    // A domain only added (pending) is no better.
    await addDomain(victim);
    expect((await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { email_domains: [victim] } })).status).toBe(409);
    expect((await discover(`ceo@${victim}`)).status).toBe(404);
  });

  it('pending → no record (409) → other values (409) → the value (200 verified) → routes discovery, login and the IdP', async () => {
    const added = await addDomain(`  ${ACME.toUpperCase()}.`);
    expect(added).toMatchObject({ domain: ACME, status: 'pending', method: 'dns_txt', verification: { type: 'dns_txt', name: challenge(ACME) }, verified_at: null });
    expect(added.verification.value).toMatch(/^tessera-verification=[A-Za-z0-9_-]{20,}$/);
    expect((await listDomains()).find((d) => d.domain === ACME)).toMatchObject({ status: 'pending', verification: added.verification });

    const missing = await verify(ACME);
    expect(missing.status, JSON.stringify(missing.body)).toBe(409);
    expect((missing.body as Problem).detail).toMatch(/no TXT record at _tessera-challenge\..*NXDOMAIN/);
    expect((missing.body as Problem).detail).toContain(added.verification.value);

    zone.set(challenge(ACME), ['v=spf1 -all', 'tessera-verification=somebody-elses-value']);
    const wrong = await verify(ACME);
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(409);
    expect((wrong.body as Problem).detail).toContain('"v=spf1 -all", "tessera-verification=somebody-elses-value"');
    expect((await listDomains()).find((d) => d.domain === ACME)).toMatchObject({ status: 'pending', last_failure: expect.stringContaining('v=spf1 -all') });
    expect((await discover(`someone@${ACME}`)).status).toBe(404);

    zone.set(challenge(ACME), ['v=spf1 -all', added.verification.value]);
    const verified = await verify(ACME);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ domain: ACME, status: 'verified', verified_at: expect.any(String), last_failure: null });

    expect((await discover(`someone@${ACME}`)).body).toMatchObject({ tenant: tenant.slug, methods: ['password'] });
    const patched = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { email_domains: [tenant.domain, ACME] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await discover(`someone@${ACME}`)).body).toMatchObject({ tenant: tenant.slug, methods: ['sso'] });
    // A user of the domain signs in with a password without naming the tenant.
    await createUser(http, adminToken, { email: `carol@${ACME}`, role: 'viewer' });
    expect((await http.request('POST', '/v1/auth/login', { body: { email: `carol@${ACME}`, password: 'correct horse battery staple' } })).status).toBe(200);
    // And SSO provisions its users just in time.
    const jit = await ssoLogin('alice');
    expect(jit.status, jit.text).toBe(302);
    expect(new URL(jit.headers.location!).searchParams.get('code')).toMatch(/^tsr_code_/);

    const [event] = await eventsOf('domain_verified');
    expect(event).toMatchObject({ target_id: ACME, actor_id: tenant.admin.id, payload: { method: 'dns_txt', previous_status: 'pending' } });
    expect((await eventsOf('domain_verification_failed')).filter((e) => e.target_id === ACME)).toHaveLength(2);
  });

  it('another tenant can neither add, verify nor route a verified domain', async () => {
    const added = await http.request('POST', domainsPath(other), { token: otherAdminToken, body: { domain: ACME } });
    expect(added.status, JSON.stringify(added.body)).toBe(409);
    expect((added.body as Problem).detail).toMatch(/verified by another tenant/);
    const idpBody = { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [ACME], allowed_redirect_uris: [BACK], active: true };
    const claimed = await http.request('POST', `/v1/tenants/${other.tenantId}/idp`, { token: otherAdminToken, body: idpBody });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(409);
    expect((claimed.body as Problem).detail).toMatch(/verified by another tenant/);

    // Both add a new domain while it is unclaimed; the first to prove it keeps it.
    const contested = `contested-${suffix}.example`;
    const ours = await addDomain(contested);
    const theirs = await addDomain(contested, otherAdminToken, other);
    expect(theirs.verification.value).not.toBe(ours.verification.value);
    zone.set(challenge(contested), [ours.verification.value, theirs.verification.value]);
    expect((await verify(contested)).status).toBe(200);
    const late = await verify(contested, otherAdminToken, other);
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect((late.body as Problem).detail).toMatch(/verified by another tenant/);
    expect((await listDomains(otherAdminToken, other)).find((d) => d.domain === contested)).toMatchObject({ status: 'pending' });
    expect((await discover(`x@${contested}`)).body).toMatchObject({ tenant: tenant.slug });
  });

  it('only the tenant\'s admins manage its domains', async () => {
    const routes: [string, string, unknown][] = [
      ['GET', domainsPath(), undefined],
      ['POST', domainsPath(), { domain: `denied-${suffix}.example` }],
      ['POST', `${domainsPath()}/${ACME}/verify`, undefined],
      ['DELETE', `${domainsPath()}/${ACME}`, undefined],
    ];
    for (const [method, url, body] of routes) {
      for (const [who, token] of [['viewer', viewerToken], ['workspace admin', wsAdminToken], ['another tenant\'s admin', otherAdminToken]] as const) {
        const res = await http.request(method, url, { token, body });
        expect(res.status, `${who} ${method} ${url}: ${JSON.stringify(res.body)}`).toBe(403);
        expect((res.body as Problem).code).toBe('forbidden');
      }
      expect((await http.request(method, url, { body })).status, `${method} ${url} without a token`).toBe(401);
    }
    // A PAT is for automation: even the admin's own, it does not manage domains (it may list them).
    const pat = await http.request('POST', '/v1/tokens', { token: adminToken, body: { name: 'automation', scopes: ['idp:manage'] } });
    expect(pat.status, JSON.stringify(pat.body)).toBe(201);
    const patToken = (pat.body as { token: string }).token;
    for (const [method, url, body] of routes.slice(1)) {
      const res = await http.request(method, url, { token: patToken, body });
      expect(res.status, `PAT ${method} ${url}: ${JSON.stringify(res.body)}`).toBe(403);
    }
    expect((await listDomains()).map((d) => d.domain)).not.toContain(`denied-${suffix}.example`);
    expect((await listDomains()).find((d) => d.domain === ACME)).toMatchObject({ status: 'verified' });
  });

  it('refuses junk domains with problem+json and writes nothing', async () => {
    const before = await listDomains();
    const junk: [unknown, RegExp][] = [
      ['gmail.com', /public mail provider/],
      ['GMAIL.com.', /public mail provider/],
      ['192.0.2.10', /IP address/],
      ['[2001:db8::1]', /IP address/],
      ['localhost', /domain name/],
      ['exa mple.example', /domain name/],
      ['-bad.example', /domain name/],
      [`${'a'.repeat(64)}.example`, /domain name/],
      ['', /domain name/],
      [42, /./],
    ];
    for (const [domain, message] of junk) {
      const res = await http.request('POST', domainsPath(), { token: adminToken, body: { domain } });
      expect(res.status, `${JSON.stringify(domain)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      const problem = res.body as Problem;
      expect(problem.code).toBe('validation_failed');
      expect(problem.errors?.[0]).toMatchObject({ path: 'domain', message: expect.stringMatching(message) });
    }
    expect((await http.request('POST', domainsPath(), { token: adminToken, body: { domain: `ok-${suffix}.example`, extra: 1 } })).status).toBe(400);
    for (const segment of ['192.0.2.10', 'localhost', 'gmail.com']) {
      expect((await verify(segment)).status, segment).toBe(400);
      expect((await http.request('DELETE', `${domainsPath()}/${segment}`, { token: adminToken })).status, segment).toBe(400);
    }
    expect(await listDomains()).toEqual(before);
    // Adding the same domain twice, or verifying one never added, says so.
    expect((await http.request('POST', domainsPath(), { token: adminToken, body: { domain: ACME } })).status).toBe(409);
    expect((await verify(`never-added-${suffix}.example`)).status).toBe(404);
  });

  it('a DNS outage is a 503 that changes nothing, and does not drop a verified domain on re-check', async () => {
    const pending = `outage-${suffix}.example`;
    await addDomain(pending);
    for (const outage of ['servfail', 'silent'] as const) {
      zone.set(challenge(pending), outage);
      const res = await verify(pending);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect((res.body as Problem)).toMatchObject({ code: 'unavailable', detail: expect.stringMatching(/DNS did not answer/) });
      expect((await listDomains()).find((d) => d.domain === pending)).toMatchObject({ status: 'pending', checked_at: null, last_failure: null });
    }
    zone.set(challenge(ACME), 'servfail');
    await pastRecheckInterval();
    expect((await discover(`someone@${ACME}`)).body).toMatchObject({ tenant: tenant.slug, methods: ['sso'] });
    expect((await listDomains()).find((d) => d.domain === ACME)).toMatchObject({ status: 'verified' });
  });

  it('a verified domain whose record is gone is dropped on its next use: no routing, no just-in-time user', async () => {
    const before = (await listDomains()).find((d) => d.domain === ACME)!;
    // Within the interval nothing is asked: the record may go without effect yet.
    zone.set(challenge(ACME), [before.verification.value]);
    await pastRecheckInterval();
    expect((await discover(`someone@${ACME}`)).status).toBe(200);
    const checked = (await listDomains()).find((d) => d.domain === ACME)!;
    expect(checked.checked_at! > before.checked_at!).toBe(true);
    zone.delete(challenge(ACME));
    expect((await discover(`someone@${ACME}`)).status).toBe(200);

    await pastRecheckInterval();
    // The SSO login meets the re-check first: bob is not provisioned.
    const refused = await ssoLogin('bob');
    expect(ssoErrorOf(refused, BACK)).toMatch(/email domain is not routed/);
    expect((await discover(`someone@${ACME}`)).status).toBe(404);
    expect((await http.request('POST', '/v1/auth/login', { body: { email: `carol@${ACME}`, password: 'correct horse battery staple' } })).status).toBe(401);
    expect((await listDomains()).find((d) => d.domain === ACME)).toMatchObject({ status: 'failed', last_failure: expect.stringMatching(/NXDOMAIN/) });
    const users = (await http.request('GET', '/v1/users?limit=100', { token: adminToken })).body as { users: { email: string }[] };
    expect(users.users.map((u) => u.email)).toContain(`alice@${ACME}`);
    expect(users.users.map((u) => u.email)).not.toContain(`bob@${ACME}`);
    const [dropped] = (await eventsOf('domain_verification_failed')).filter((e) => e.target_id === ACME);
    expect(dropped).toMatchObject({ actor_id: null, payload: { previous_status: 'verified', routing_removed: true, check: 'recheck' } });

    // Publishing the record again and verifying brings it back.
    zone.set(challenge(ACME), [before.verification.value]);
    expect((await verify(ACME)).body).toMatchObject({ status: 'verified' });
    expect((await discover(`someone@${ACME}`)).body).toMatchObject({ methods: ['sso'] });
  });

  it('DELETE removes a domain and its routing at once; it is audited', async () => {
    const res = await http.request('DELETE', `${domainsPath()}/${ACME}`, { token: adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect((await listDomains()).map((d) => d.domain)).not.toContain(ACME);
    expect((await discover(`someone@${ACME}`)).status).toBe(404);
    expect((await http.request('DELETE', `${domainsPath()}/${ACME}`, { token: adminToken })).status).toBe(404);
    // Now the other tenant may have it.
    const theirs = await addDomain(ACME, otherAdminToken, other);
    zone.set(challenge(ACME), [theirs.verification.value]);
    expect((await verify(ACME, otherAdminToken, other)).status).toBe(200);
    expect((await discover(`someone@${ACME}`)).body).toMatchObject({ tenant: other.slug });

    const [removed] = await eventsOf('domain_removed');
    expect(removed).toMatchObject({ target_id: ACME, actor_id: tenant.admin.id, payload: { previous_status: 'verified' } });
    expect((await eventsOf('domain_added')).map((e) => e.target_id)).toEqual(expect.arrayContaining([ACME, `victim-${suffix}.example`]));
  });

  it('the domains given at tenant creation are verified on the operator\'s word and never re-checked', async () => {
    const own = (await listDomains()).find((d) => d.domain === tenant.domain);
    expect(own).toMatchObject({ status: 'verified', method: 'operator', checked_at: null });
    expect((await eventsOf('tenant_created'))[0]).toMatchObject({ actor_id: null, payload: { email_domains: [tenant.domain], domains_verified_by: 'operator' } });
    await pastRecheckInterval();
    // No TXT record exists for it, yet it keeps routing.
    expect((await discover(`someone@${tenant.domain}`)).body).toMatchObject({ tenant: tenant.slug });
    expect((await verify(tenant.domain)).body).toMatchObject({ status: 'verified', method: 'operator' });
  });
});
