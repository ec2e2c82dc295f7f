/**
 * The served OpenAPI document can never drift from the server: a full flow over HTTP against
 * the local host (every route of the table, success and error answers) and every answer
 * checked against `GET /v1/openapi.json` with Ajv (status, content type, headers, body).
 *
 * The route table drives it: every route gets the refusals it can give (no credential, a role
 * without its permission, a malformed path parameter, a malformed body) without being listed
 * here, and the last test fails, naming them, for routes whose success no step has exercised;
 * a new route is covered by adding its steps to the flow below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteName } from '../../functions/routes';
import { totpCode } from '../../shared/crypto/totp';
import { permissionsFor } from '../../shared/identity/permissions';
import type { RouteDefinition } from '../../shared/http/route';
import { Browser } from '../support/browser';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { OpenApiConformance } from '../support/openapi-conformance';
import { readOutbox, resetTokenOf } from '../support/outbox';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
let okta: FakeOkta;
let oidc: LocalOidcProvider;
let conformance: OpenApiConformance;
let tenant: TestTenant;
const clock = new MovableClock();
const BACK = 'https://app.example.com/sso/done';
const OIDC_SECRET = 'conformance-oidc-client-secret-0001';

beforeAll(async () => {
  // A small org, so that runs, changes, entities and relationships answer with items to check.
  const [user, group, app] = [oktaUser(1), oktaGroup(1, 'eng-platform'), oktaApp(1)];
  okta = await startFakeOkta({ org: buildOrg({ users: [user, oktaUser(2)], groups: [group], members: { [group.id]: [user.id] }, apps: [app], appGroups: { [app.id]: [group.id] } }) });
  host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: '3', TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: '0' },
  });
  http = api(host.url);
  // A new tenant as the operator makes it: MFA REQUIRED for all seven actions.
  tenant = await createTestTenant(host.deps);
  oidc = await startOidcProvider({
    clients: [{ client_id: 'tessera', client_secret: OIDC_SECRET, redirect_uris: [`${host.url}/v1/auth/sso/${tenant.slug}/callback`] }],
    accounts: { sso: { email: `sso@${tenant.domain}` } },
  });
  const served = await http.request('GET', '/v1/openapi.json');
  expect(served.status).toBe(200);
  conformance = new OpenApiConformance(served.body as Record<string, unknown>);
});
afterAll(async () => {
  await oidc?.close();
  await host?.close();
  await okta?.close();
});

interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** One request to a route of the table, its answer checked against the served document. */
async function call(name: RouteName, options: CallOptions = {}, what = 'flow'): Promise<HttpResponse> {
  const route: RouteDefinition = routes[name];
  const path = route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const value = options.params?.[param];
    if (value === undefined) throw new Error(`${name}: no value for {${param}}`);
    return encodeURIComponent(value);
  });
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const res = await http.request(route.method, `${path}${query}`, {
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : {}),
    ...(options.token ? { token: options.token } : {}),
    headers: options.headers ?? {},
  });
  conformance.check(route.method, route.path, res, `${name}: ${what}`);
  return res;
}

const expectStatus = (res: HttpResponse, status: number) => expect(res.status, res.text.slice(0, 500)).toBe(status);
const bodyOf = <T>(res: HttpResponse) => res.body as T;

/** State the steps hand on. */
const s = {
  admin: '' as string,
  refresh: '' as string,
  secret: '' as string,
  backupCodes: [] as string[],
  viewer: '' as string,
  pat: '' as string,
  patId: '' as string,
  userId: '' as string,
  workspaceId: '' as string,
  connectionId: '' as string,
  etag: '' as string,
};

async function nextCode(): Promise<string> {
  clock.advance(30); // one code per time step: a code is accepted once
  return totpCode(s.secret, clock.epochSeconds());
}

describe('a full flow over HTTP, every answer checked against the served OpenAPI document', () => {
  it('service: health, this document, the JWKS', async () => {
    expectStatus(await call('health'), 200);
    expectStatus(await call('openapi'), 200);
    expectStatus(await call('jwks'), 200);
  });

  it('first login: MFA enrollment with the mfa_token as the bearer and no body, then a step-up and backup codes', async () => {
    const pending = await call('login', { body: { email: tenant.admin.email, password: PASSWORD } });
    expectStatus(pending, 200);
    const mfaToken = bodyOf<{ mfa_token: string }>(pending).mfa_token;
    const started = await call('mfaEnrollStart', { token: mfaToken });
    expectStatus(started, 200);
    s.secret = bodyOf<{ secret: string }>(started).secret;
    const confirmed = await call('mfaEnrollConfirm', { body: { mfa_token: mfaToken, code: await nextCode() } });
    expectStatus(confirmed, 200);
    ({ access_token: s.admin, refresh_token: s.refresh } = bodyOf<{ access_token: string; refresh_token: string }>(confirmed));

    // A reused code is refused, saying so.
    const reused = await call('mfaChallenge', { token: s.admin, body: { code: await totpCode(s.secret, clock.epochSeconds()) } }, 'reused code');
    expectStatus(reused, 401);
    const stepUp = await call('mfaChallenge', { token: s.admin, body: { code: await nextCode() } });
    expectStatus(stepUp, 200);
    s.admin = bodyOf<{ access_token: string }>(stepUp).access_token;
    expectStatus(await call('mfaBackupCodesRegen', { token: s.admin }), 200);
  });

  it('tokens: refresh (rotating), logout, and the next login answering the challenge', async () => {
    const refreshed = await call('token', { body: { grant_type: 'refresh_token', refresh_token: s.refresh } });
    expectStatus(refreshed, 200);
    expectStatus(await call('logout', { body: { refresh_token: bodyOf<{ refresh_token: string }>(refreshed).refresh_token } }), 204);
    expectStatus(await call('token', { body: { grant_type: 'refresh_token', refresh_token: s.refresh } }, 'reused refresh token'), 401);

    const pending = await call('login', { body: { email: tenant.admin.email, password: PASSWORD } });
    const answered = await call('mfaChallenge', { body: { mfa_token: bodyOf<{ mfa_token: string }>(pending).mfa_token, code: await nextCode() } });
    expectStatus(answered, 200);
    ({ access_token: s.admin, refresh_token: s.refresh } = bodyOf<{ access_token: string; refresh_token: string }>(answered));
  });

  it('the current user, permissions, MFA policy', async () => {
    expectStatus(await call('me', { token: s.admin }), 200);
    expectStatus(await call('permissionsList', { token: s.admin }), 200);
    expectStatus(await call('mfaPolicyGet', { token: s.admin, params: { id: tenant.tenantId } }), 200);
    expectStatus(await call('mfaPolicyUpdate', { token: s.admin, params: { id: tenant.tenantId }, body: { mfa_mode: 'REQUIRED' } }), 200);
    expectStatus(await call('mfaPolicyGet', { token: s.admin, params: { id: 'ten_0000000000other' } }, 'another tenant'), 403);
  });

  it('users and workspaces', async () => {
    const created = await call('usersCreate', { token: s.admin, body: { email: `viewer@${tenant.domain}`, password: PASSWORD, role: 'viewer' } });
    expectStatus(created, 201);
    s.userId = bodyOf<{ id: string }>(created).id;
    expectStatus(await call('usersCreate', { token: s.admin, body: { email: `viewer@${tenant.domain}`, role: 'viewer' } }, 'duplicate email'), 409);
    expectStatus(await call('usersList', { token: s.admin, query: { limit: '10' } }), 200);
    expectStatus(await call('usersGet', { token: s.admin, params: { id: s.userId } }), 200);
    expectStatus(await call('usersGet', { token: s.admin, params: { id: 'usr_0000000000absent' } }, 'absent'), 404);
    expectStatus(await call('usersUpdate', { token: s.admin, params: { id: s.userId }, body: { role: 'viewer' } }), 200);

    const workspace = await call('workspacesCreate', { token: s.admin, body: { name: 'Second' } });
    expectStatus(workspace, 201);
    s.workspaceId = bodyOf<{ id: string }>(workspace).id;
    expectStatus(await call('workspacesList', { token: s.admin }), 200);
    expectStatus(await call('workspacesOwnerTransfer', { token: s.admin, params: { id: s.workspaceId }, body: { new_owner_id: s.userId } }), 200);

    const leaving = await call('usersCreate', { token: s.admin, body: { email: `leaving@${tenant.domain}`, role: 'viewer' } });
    expectStatus(await call('usersDisable', { token: s.admin, params: { id: bodyOf<{ id: string }>(leaving).id } }), 200);
    expectStatus(await call('usersEnable', { token: s.admin, params: { id: bodyOf<{ id: string }>(leaving).id } }), 200);
    expectStatus(await call('usersEnable', { token: s.admin, params: { id: 'usr_0000000000absent' } }, 'absent'), 404);
    expectStatus(await call('usersMfaReset', { token: s.admin, params: { id: bodyOf<{ id: string }>(leaving).id } }), 204);
    expectStatus(await call('usersMfaReset', { token: s.admin, params: { id: 'usr_0000000000absent' } }, 'absent'), 404);
    expectStatus(await call('tenantAuditEventsList', { token: s.admin, params: { id: tenant.tenantId }, query: { action: 'user_enabled', limit: '5' } }), 200);
    expectStatus(await call('tenantAuditEventsList', { token: s.admin, params: { id: 'ten_0000000000other' } }, 'another tenant'), 403);
    // The viewer signs in (enrolling, as the policy requires) for the role refusals below.
    s.viewer = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  });

  it('personal access tokens, and a PAT refused an action that needs a recent MFA', async () => {
    const created = await call('tokensCreate', { token: s.admin, body: { name: 'ci', scopes: ['connections:read', 'tokens:manage'] } });
    expectStatus(created, 201);
    const rotated = await call('tokensRotate', { token: s.admin, params: { id: bodyOf<{ id: string }>(created).id } });
    expectStatus(rotated, 201);
    ({ token: s.pat, id: s.patId } = bodyOf<{ token: string; id: string }>(rotated));
    expectStatus(await call('tokensList', { token: s.pat }), 200);
    // A PAT never creates one (403), and never carries an MFA: revoking, which the policy
    // lists, answers 401 mfa_required with WWW-Authenticate.
    expectStatus(await call('tokensCreate', { token: s.pat, body: { name: 'nested', scopes: ['connections:read'] } }, 'PAT, credential management'), 403);
    const stepUp = await call('tokensRevoke', { token: s.pat, params: { id: s.patId } }, 'PAT, no MFA');
    expectStatus(stepUp, 401);
    expect(stepUp.headers['www-authenticate']).toContain('insufficient_user_authentication');
    expectStatus(await call('tokensRevoke', { token: s.admin, params: { id: s.patId } }), 204);
    expectStatus(await call('tokensRevoke', { token: s.admin, params: { id: 'tok_0000000000absent' } }, 'absent'), 404);
    expectStatus(await call('me', { token: s.pat }, 'revoked PAT'), 401);
  });

  it('catalog and connections: create from the catalog example (Idempotency-Key), read with ETag, change with If-Match, test, history, audit, delete', async () => {
    const catalog = await call('integrationsList', { token: s.admin });
    expectStatus(catalog, 200);
    const okta = bodyOf<{ integrations: { integration_id: string; scope_schema: { examples: unknown[] } }[] }>(catalog).integrations.find((i) => i.integration_id === 'int_okta_discovery')!;
    const body = { integration_id: okta.integration_id, name: 'Okta', scope: okta.scope_schema.examples[0], schedule: { type: 'daily', hour: 2, minute: 30 }, configuration: { org_url: 'https://acme.okta.com', api_token: oktaToken } };
    const created = await call('connectionsCreate', { token: s.admin, body, headers: { 'idempotency-key': 'create-okta-1' } });
    expectStatus(created, 201);
    s.connectionId = bodyOf<{ connection_id: string }>(created).connection_id;
    expectStatus(await call('connectionsCreate', { token: s.admin, body, headers: { 'idempotency-key': 'create-okta-1' } }, 'idempotent retry'), 201);
    expectStatus(await call('connectionsCreate', { token: s.admin, body: { ...body, name: 'Other' }, headers: { 'idempotency-key': 'create-okta-1' } }, 'key reused with another body'), 422);
    expectStatus(await call('connectionsCreate', { token: s.admin, body: { ...body, configuration: {} } }, 'configuration that does not fit'), 400);

    expectStatus(await call('connectionsList', { token: s.admin, query: { integration_id: okta.integration_id } }), 200);
    const read = await call('connectionsGet', { token: s.admin, params: { id: s.connectionId } });
    expectStatus(read, 200);
    s.etag = read.headers.etag!;
    const changed = await call('connectionsUpdate', { token: s.admin, params: { id: s.connectionId }, body: { name: 'Okta (prod)' }, headers: { 'if-match': s.etag } });
    expectStatus(changed, 200);
    expectStatus(await call('connectionsUpdate', { token: s.admin, params: { id: s.connectionId }, body: { name: 'stale' }, headers: { 'if-match': s.etag } }, 'stale If-Match'), 412);

    expectStatus(await call('connectionsTest', { token: s.admin, params: { id: s.connectionId } }), 200);
    expectStatus(await call('connectionTestsList', { token: s.admin, params: { id: s.connectionId } }), 200);
    const run = await call('connectionRunsCreate', { token: s.admin, params: { id: s.connectionId } });
    expectStatus(run, 202);
    const runId = bodyOf<{ run_id: string }>(run).run_id;
    expectStatus(await call('connectionRunsCreate', { token: s.admin, params: { id: s.connectionId } }, 'while a run is queued'), 409);
    await host.runQueue.idle();
    expectStatus(await call('connectionRunsList', { token: s.admin, params: { id: s.connectionId } }), 200);
    expectStatus(await call('connectionRunsGet', { token: s.viewer, params: { id: s.connectionId, run_id: runId } }), 200);
    expectStatus(await call('connectionRunsGet', { token: s.viewer, params: { id: s.connectionId, run_id: 'run_00000000000000000000000000' } }, 'absent'), 404);
    expectStatus(await call('connectionRunChangesList', { token: s.viewer, params: { id: s.connectionId, run_id: runId }, query: { limit: '2' } }), 200);
    const entities = await call('connectionEntitiesList', { token: s.viewer, params: { id: s.connectionId }, query: { kind: 'Account' } });
    expectStatus(entities, 200);
    const entityId = bodyOf<{ entities: { entity_id: string }[] }>(entities).entities[0]!.entity_id;
    expectStatus(await call('connectionEntitiesList', { token: s.viewer, params: { id: s.connectionId }, query: { q: 'USER', limit: '1' } }), 200);
    expectStatus(await call('connectionEntityGet', { token: s.viewer, params: { id: s.connectionId, entity_id: entityId } }), 200);
    expectStatus(await call('connectionEntityGet', { token: s.viewer, params: { id: s.connectionId, entity_id: 'ent_00000000000000000000000000' } }, 'absent'), 404);
    expectStatus(await call('connectionRelationshipsList', { token: s.viewer, params: { id: s.connectionId }, query: { entity_id: entityId } }), 200);
    expectStatus(await call('connectionRelationshipsList', { token: s.viewer, params: { id: s.connectionId } }), 200);
    expectStatus(await call('connectionRelationshipsList', { token: s.viewer, params: { id: s.connectionId }, query: { kind: 'nothing' } }, 'unknown kind'), 400);
    // The access graph the run fed: people, a person, what they reach, who reaches an entity, history.
    const people = await call('peopleList', { token: s.viewer, query: { q: 'user' } });
    expectStatus(people, 200);
    const personId = bodyOf<{ people: { person_id: string }[] }>(people).people[0]!.person_id;
    expectStatus(await call('peopleGet', { token: s.viewer, params: { person_id: personId } }), 200);
    expectStatus(await call('peopleGet', { token: s.viewer, params: { person_id: 'per_00000000000000000000000000' } }, 'absent'), 404);
    expectStatus(await call('personAccessList', { token: s.viewer, params: { person_id: personId }, query: { kind: 'Resource' } }), 200);
    expectStatus(await call('entityAccessList', { token: s.viewer, params: { id: s.connectionId, entity_id: entityId } }), 200);
    expectStatus(await call('accessChangesList', { token: s.viewer, query: { since: '2020-01-01T00:00:00Z', person_id: personId } }), 200);
    expectStatus(await call('accessChangesList', { token: s.viewer, query: { since: 'yesterday' } }, 'not a time'), 400);
    expectStatus(await call('connectionRunsCreate', { token: s.viewer, params: { id: s.connectionId } }, 'viewer'), 403);
    expectStatus(await call('auditEventsList', { token: s.viewer, query: { target_id: s.connectionId } }), 200);
    expectStatus(await call('connectionsGet', { token: s.admin, params: { id: 'conn_0000000000absent' } }, 'absent'), 404);
    // The test changed its status (a new version): delete what is current.
    s.etag = (await call('connectionsGet', { token: s.admin, params: { id: s.connectionId } })).headers.etag!;
    expectStatus(await call('connectionsDelete', { token: s.admin, params: { id: s.connectionId }, headers: { 'if-match': s.etag } }), 204);
  });

  it('single sign-on: IdP configuration, discovery, OIDC start, callback (GET and form POST), SP metadata', async () => {
    const config = { provider_type: 'oidc', issuer: oidc.issuer, client_id: 'tessera', client_secret: OIDC_SECRET, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], active: true };
    expectStatus(await call('idpCreate', { token: s.admin, params: { id: tenant.tenantId }, body: config }), 201);
    expectStatus(await call('idpCreate', { token: s.admin, params: { id: tenant.tenantId }, body: config }, 'exists'), 409);
    expectStatus(await call('idpGet', { token: s.admin, params: { id: tenant.tenantId } }), 200);
    expectStatus(await call('idpUpdate', { token: s.admin, params: { id: tenant.tenantId }, body: { default_role: 'viewer' } }), 200);
    // Email domains: the tenant's own (the operator's word) verifies as is; a new one stays
    // pending until DNS holds its value (tenant-domains.test.ts runs that against a DNS server).
    const added = `new-${tenant.slug}.example`;
    const domains = (domain: string) => ({ id: tenant.tenantId, domain });
    expectStatus(await call('domainsCreate', { token: s.admin, params: { id: tenant.tenantId }, body: { domain: added } }), 201);
    expectStatus(await call('domainsCreate', { token: s.admin, params: { id: tenant.tenantId }, body: { domain: added } }, 'already added'), 409);
    expectStatus(await call('domainsCreate', { token: s.admin, params: { id: tenant.tenantId }, body: { domain: 'gmail.com' } }, 'public mail domain'), 400);
    expectStatus(await call('domainsList', { token: s.admin, params: { id: tenant.tenantId } }), 200);
    expectStatus(await call('domainsList', { token: s.admin, params: { id: 'ten_0000000000other' } }, 'another tenant'), 403);
    expectStatus(await call('idpUpdate', { token: s.admin, params: { id: tenant.tenantId }, body: { email_domains: [added] } }, 'pending domain'), 409);
    expectStatus(await call('domainsVerify', { token: s.admin, params: domains(tenant.domain) }), 200);
    expectStatus(await call('domainsVerify', { token: s.admin, params: domains('never-added.example') }, 'absent'), 404);
    expectStatus(await call('domainsDelete', { token: s.admin, params: domains(added) }), 204);
    expectStatus(await call('domainsDelete', { token: s.admin, params: domains(added) }, 'absent'), 404);
    expectStatus(await call('discover', { query: { email: `someone@${tenant.domain}` } }), 200);
    expectStatus(await call('discover', { query: { email: 'someone@unclaimed.example' } }, 'unclaimed domain'), 404);
    expectStatus(await call('ssoStart', { params: { tenant: tenant.slug }, query: { redirect_uri: 'https://evil.example/x' } }, 'redirect_uri not allowed'), 400);

    /** start → the IdP's login → the query the IdP sends the browser back with. */
    const atIdp = async () => {
      const start = await call('ssoStart', { params: { tenant: tenant.slug }, query: { redirect_uri: BACK, state: 'app-1' } });
      expectStatus(start, 302);
      const browser = new Browser();
      const auth = await browser.get(start.headers.location!);
      const submitted = await browser.postForm(auth.location!, { login: 'sso', amr: 'pwd', acr: 'urn:test:loa:1' });
      const resumed = await browser.get(submitted.location!);
      return Object.fromEntries(new URL(resumed.location!).searchParams);
    };
    const viaGet = await call('ssoCallback', { params: { tenant: tenant.slug }, query: await atIdp() });
    expectStatus(viaGet, 302);
    const code = new URL(viaGet.headers.location!).searchParams.get('code')!;
    const ssoTokens = await call('token', { body: { grant_type: 'sso_code', code } });
    expectStatus(ssoTokens, 200);
    const viaPost = await call('ssoCallbackPost', {
      params: { tenant: tenant.slug },
      rawBody: new URLSearchParams(await atIdp()).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectStatus(viaPost, 302);
    // The federated identities of that user: listed by the user and by a tenant admin, unlinked; a link started.
    const ssoToken = bodyOf<{ access_token: string }>(ssoTokens).access_token;
    const ssoUserId = bodyOf<{ id: string }>(await call('me', { token: ssoToken })).id;
    const mine = await call('meFederatedIdentitiesList', { token: ssoToken });
    expectStatus(mine, 200);
    const identityId = bodyOf<{ federated_identities: { id: string }[] }>(mine).federated_identities[0]!.id;
    expectStatus(await call('userFederatedIdentitiesList', { token: s.admin, params: { id: ssoUserId } }), 200);
    expectStatus(await call('userFederatedIdentitiesList', { token: s.admin, params: { id: 'usr_0000000000absent' } }, 'absent'), 404);
    expectStatus(await call('userFederatedIdentityUnlink', { token: s.admin, params: { id: ssoUserId, identity_id: identityId } }), 204);
    expectStatus(await call('userFederatedIdentityUnlink', { token: s.admin, params: { id: ssoUserId, identity_id: identityId } }, 'absent'), 404);
    expectStatus(await call('meFederatedIdentityLink', { token: s.admin, body: { redirect_uri: BACK } }), 200);
    expectStatus(await call('meFederatedIdentityLink', { token: s.admin, body: { redirect_uri: 'https://evil.example/x' } }, 'redirect_uri not allowed'), 400);
    // The IdP's refusal goes back to the application.
    const refusedStart = await call('ssoStart', { params: { tenant: tenant.slug }, query: { redirect_uri: BACK } });
    const ourState = new URL(refusedStart.headers.location!).searchParams.get('state')!;
    const refused = await call('ssoCallback', { params: { tenant: tenant.slug }, query: { error: 'access_denied', state: ourState } }, 'IdP refused');
    expectStatus(refused, 302);
    expect(new URL(refused.headers.location!).searchParams.get('error')).toBe('access_denied');
    expectStatus(await call('ssoCallback', { params: { tenant: tenant.slug }, query: { code: 'x', state: 'no-such-login-in-flight-000000000000000000' } }, 'unknown state'), 401);

    expectStatus(await call('ssoMetadata', { params: { tenant: tenant.slug } }), 200);
    expectStatus(await call('ssoMetadata', { params: { tenant: 'no-such-tenant' } }, 'unknown tenant'), 404);
    expectStatus(await call('idpDelete', { token: s.admin, params: { id: tenant.tenantId } }), 204);
    expectStatus(await call('idpGet', { token: s.admin, params: { id: tenant.tenantId } }, 'deleted'), 404);
  });

  it('every route refuses what it must, as documented: no credential, a role without the permission, malformed input, an oversized body', async () => {
    const viewerPermissions = new Set<string>(permissionsFor('viewer', false));
    for (const [name, route] of Object.entries(routes) as [RouteName, RouteDefinition][]) {
      const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, m[1] === 'tenant' ? tenant.slug : m[1] === 'id' && route.path.startsWith('/v1/tenants/') ? tenant.tenantId : 'x']));
      const hasParams = Object.keys(params).length > 0;
      const valid = { ...params, ...(params.id === 'x' ? { id: 'usr_0000000000nothere' } : {}) };
      if (route.auth === 'bearer') expectStatus(await call(name, { params: valid }, 'no credential'), 401);
      if (route.permission && !viewerPermissions.has(route.permission)) expectStatus(await call(name, { params: valid, token: s.viewer }, 'viewer'), 403);
      if (hasParams && !route.path.includes('{tenant}')) {
        const res = await call(name, { params: { ...params, id: 'not an id' }, token: s.admin }, 'malformed id');
        expect([400, 403], `${name} malformed id → ${res.status}`).toContain(res.status);
      }
      if (route.request?.body && route.request.bodyEncoding !== 'form') {
        expectStatus(await call(name, { params: valid, token: s.admin, rawBody: '{"unterminated', headers: { 'content-type': 'application/json' } }, 'malformed JSON'), 400);
        expectStatus(await call(name, { params: valid, token: s.admin, rawBody: JSON.stringify({ padding: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } }, 'oversized body'), 413);
      }
    }
  });

  it('passwords: forgot, reset from the emailed link, change; failed logins up to the rate limit', async () => {
    expectStatus(await call('passwordForgot', { body: { email: `viewer@${tenant.domain}` } }), 202);
    const [mail] = (await readOutbox(host.config.outboxDir)).filter((m) => m.headers.to?.includes(`viewer@${tenant.domain}`));
    expectStatus(await call('passwordReset', { body: { token: resetTokenOf(mail!), new_password: 'a brand new passphrase 1' } }), 204);
    expectStatus(await call('passwordReset', { body: { token: resetTokenOf(mail!), new_password: 'a brand new passphrase 2' } }, 'used link'), 401);
    expectStatus(await call('passwordReset', { body: { token: 'x', new_password: 'password' } }, 'common password'), 400);
    expectStatus(await call('mePassword', { token: s.admin, body: { current_password: PASSWORD, new_password: 'the admin has a new passphrase' } }), 204);

    // Wrong passwords: 401 until the per-(account, address) limit, then 429 with Retry-After.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('login', { body: { email: `nobody@${tenant.domain}`, password: 'wrong password' } }, 'wrong password')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('no answer broke the document, and every route of the table answered a success', () => {
    expect(conformance.violations).toEqual([]);
    const succeeded = new Set(conformance.answers.filter((a) => a.status < 400).map((a) => a.operationId));
    const missing = Object.keys(routes).filter((name) => !succeeded.has(name));
    expect(missing, `routes of the table whose success no step of this flow exercises (add their steps): ${missing.join(', ')}`).toEqual([]);
    // For the record in the test output: how much was checked.
    console.info(`OpenAPI conformance: ${conformance.answers.length} answers of ${new Set(conformance.answers.map((a) => a.operationId)).size} operations checked, ${conformance.violations.length} violations`);
  });
});
