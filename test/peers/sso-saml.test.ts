/**
 * SAML 2.0 single sign-on against a real signing IdP: samlify's IdP role with an RSA key and
 * a self-signed certificate generated for the run. The test plays the browser: start → the
 * AuthnRequest (HTTP-Redirect) read by the IdP → a signed Response POSTed to the ACS.
 */
import { randomBytes } from 'node:crypto';
import samlify from 'samlify';
import * as schemaValidator from '@authenio/samlify-xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listIdentityAuditEvents } from '../../shared/audit/audit-log';
import { verifyAccessToken } from '../../shared/identity/access-tokens';
import { createSsoTransaction } from '../../shared/identity/sso/login-transactions';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { idpMetadataXml, signingIdentity, type SigningIdentity } from '../support/saml-idp';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let sp: samlify.ServiceProviderInstance;
let idp: samlify.IdentityProviderInstance;
let impostor: samlify.IdentityProviderInstance;
let key: SigningIdentity;
let adminToken: string;
const BACK = 'https://console.example.com/sso/done';
const IDP_ENTITY = 'https://saml-idp.test/entity';
const IDP_SSO = 'https://saml-idp.test/sso';
const MFA_CLASS = 'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract';

beforeAll(async () => {
  // The IdP side of the test parses AuthnRequests with the same offline schema validator.
  samlify.setSchemaValidator(schemaValidator);
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  let otherKey: SigningIdentity;
  [key, otherKey] = await Promise.all([signingIdentity('saml-idp'), signingIdentity('impostor')]);
  const metadata = idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: IDP_SSO, certBody: key.certBody });
  idp = samlify.IdentityProvider({ metadata, privateKey: key.privateKey });
  // Same entity id and endpoints, another key: what an attacker without the IdP's key can sign.
  impostor = samlify.IdentityProvider({ metadata: idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: IDP_SSO, certBody: otherKey.certBody }), privateKey: otherKey.privateKey });
  const res = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
    token: adminToken,
    body: { provider_type: 'saml', saml_metadata: metadata, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], active: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const spMetadata = await http.request('GET', `/v1/auth/sso/${tenant.slug}/metadata`);
  expect(spMetadata.status).toBe(200);
  sp = samlify.ServiceProvider({ metadata: spMetadata.text });
});
afterAll(() => host?.close());

interface Login {
  requestId: string;
  relayState: string;
}

async function startLogin(): Promise<Login> {
  const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
  expect(res.status, res.text).toBe(302);
  const url = new URL(res.headers.location!);
  expect(`${url.origin}${url.pathname}`).toBe(IDP_SSO);
  const parsed = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(url.searchParams) });
  const request = parsed.extract.request as { id: string };
  return { requestId: request.id, relayState: url.searchParams.get('RelayState')! };
}

interface ResponseOptions {
  requestId: string;
  email?: string;
  signer?: samlify.IdentityProviderInstance;
  audience?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  recipient?: string;
  classRef?: string;
  nameIdFormat?: string;
}

/** A Response signed by `signer` (the IdP by default), base64 as the POST binding carries it. */
async function samlResponse(o: ResponseOptions): Promise<string> {
  const email = o.email ?? `user@${tenant.domain}`;
  const now = new Date();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const acs = `${host.url}/v1/auth/sso/${tenant.slug}/callback`;
  const values = {
    ID: `_${randomBytes(16).toString('hex')}`,
    AssertionID: `_${randomBytes(16).toString('hex')}`,
    Destination: acs,
    Audience: o.audience ?? `${host.url}/v1/auth/sso/${tenant.slug}/metadata`,
    SubjectRecipient: o.recipient ?? acs,
    Issuer: IDP_ENTITY,
    IssueInstant: now.toISOString(),
    StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
    ConditionsNotBefore: (o.notBefore ?? new Date(now.getTime() - 1000)).toISOString(),
    ConditionsNotOnOrAfter: notOnOrAfter,
    SubjectConfirmationDataNotOnOrAfter: notOnOrAfter,
    NameIDFormat: o.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    NameID: `subject-${email}`,
    InResponseTo: o.requestId,
  };
  // XML fragments go in as they are (replaceTagsByValue escapes what it inserts).
  const fragments = {
    AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_session"><saml:AuthnContext><saml:AuthnContextClassRef>${o.classRef ?? 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
    AttributeStatement: `<saml:AttributeStatement><saml:Attribute Name="email" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`,
  };
  const out = await (o.signer ?? idp).createLoginResponse(sp, { extract: { request: { id: o.requestId } } }, 'post', { email }, {
    customTagReplacement: (template: string) => ({
      id: values.ID,
      context: samlify.SamlLib.replaceTagsByValue(template.replace('{AuthnStatement}', fragments.AuthnStatement).replace('{AttributeStatement}', fragments.AttributeStatement), values),
    }),
  });
  return out.context;
}

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

async function post(samlResponseB64: string, relayState: string) {
  return http.request('POST', `/v1/auth/sso/${tenant.slug}/callback`, {
    rawBody: new URLSearchParams({ SAMLResponse: samlResponseB64, RelayState: relayState }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

function codeOf(location: string | undefined): string {
  expect(location).toBeDefined();
  const url = new URL(location!);
  expect(`${url.origin}${url.pathname}`).toBe(BACK);
  return url.searchParams.get('code')!;
}

describe('SAML single sign-on', () => {
  it('publishes SP metadata with the entity id and the ACS (HTTP-POST)', async () => {
    const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/metadata`);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.text).toContain(`entityID="${host.url}/v1/auth/sso/${tenant.slug}/metadata"`);
    expect(res.text).toMatch(new RegExp(`AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${host.url}/v1/auth/sso/${tenant.slug}/callback"`));
    expect(res.text).toContain('WantAssertionsSigned="true"');
    expect((await http.request('GET', '/v1/auth/sso/no-such-tenant/metadata')).status).toBe(404);
  });

  it('signs a new user in with a signed response: JIT, AuthnContextClassRef as acr, its amr in the token', async () => {
    const start = await startLogin();
    const res = await post(await samlResponse({ requestId: start.requestId, email: `ann@${tenant.domain}`, classRef: MFA_CLASS }), start.relayState);
    expect(res.status, res.text).toBe(302);
    const tokens = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code: codeOf(res.headers.location) } });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const accessToken = (tokens.body as { access_token: string }).access_token;
    const me = await http.request('GET', '/v1/me', { token: accessToken });
    expect(me.body).toMatchObject({ email: `ann@${tenant.domain}`, role: 'viewer', workspace_id: tenant.workspaceId });
    const claims = await verifyAccessToken(host.deps, accessToken);
    expect(claims.amr).toEqual(['mfa']);
    expect(claims.mfaAt).toBeDefined();
    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.find((e) => e.action === 'login_succeeded' && e.target_id === (me.body as { id: string }).id)).toMatchObject({
      payload: { method: 'sso', provider_type: 'saml', idp_issuer: IDP_ENTITY, acr: MFA_CLASS, amr: ['mfa'] },
    });
  });

  it('refuses an unsigned response and one signed by another key', async () => {
    const a = await startLogin();
    const unsigned = decode(await samlResponse({ requestId: a.requestId })).replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '');
    expect(unsigned).not.toContain('Signature');
    const res = await post(encode(unsigned), a.relayState);
    expect(res.status).toBe(401);
    expect(res.headers.location).toBeUndefined();

    const b = await startLogin();
    expect((await post(await samlResponse({ requestId: b.requestId, signer: impostor }), b.relayState)).status).toBe(401);
    // The impostor's signature without its certificate in KeyInfo: checked against the metadata key.
    const c = await startLogin();
    const noKeyInfo = decode(await samlResponse({ requestId: c.requestId, signer: impostor })).replace(/<ds:KeyInfo>[\s\S]*?<\/ds:KeyInfo>/g, '');
    expect((await post(encode(noKeyInfo), c.relayState)).status).toBe(401);
  });

  it('refuses another audience, another recipient, an expired, a not-yet-valid and a transient-subject assertion', async () => {
    const cases: Omit<ResponseOptions, 'requestId'>[] = [
      { audience: 'https://another-sp.example/metadata' },
      { recipient: 'https://another-sp.example/acs' },
      { notBefore: new Date(Date.now() - 20 * 60_000), notOnOrAfter: new Date(Date.now() - 10 * 60_000) },
      { notBefore: new Date(Date.now() + 10 * 60_000), notOnOrAfter: new Date(Date.now() + 20 * 60_000) },
      // A transient NameID cannot be linked to a user.
      { nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' },
    ];
    for (const options of cases) {
      const start = await startLogin();
      const res = await post(await samlResponse({ requestId: start.requestId, ...options }), start.relayState);
      expect(res.status, JSON.stringify(options)).toBe(401);
    }
    // Within the skew (10 s late) still passes.
    const start = await startLogin();
    const late = await post(await samlResponse({ requestId: start.requestId, notOnOrAfter: new Date(Date.now() - 10_000) }), start.relayState);
    expect(late.status, late.text).toBe(302);
  });

  it('refuses a response to another request, and to none of ours', async () => {
    const a = await startLogin();
    const b = await startLogin();
    expect((await post(await samlResponse({ requestId: b.requestId }), a.relayState)).status).toBe(401);
    const c = await startLogin();
    expect((await post(await samlResponse({ requestId: '_not-a-request-we-made' }), c.relayState)).status).toBe(401);
    expect((await post(await samlResponse({ requestId: b.requestId }), randomBytes(32).toString('base64url'))).status).toBe(401);
  });

  it('refuses a replayed assertion, even when it would answer a live request', async () => {
    const start = await startLogin();
    const response = await samlResponse({ requestId: start.requestId, email: `replay@${tenant.domain}` });
    expect((await post(response, start.relayState)).status).toBe(302);
    expect((await post(response, start.relayState)).status).toBe(401);
    // A transaction waiting for the same request id: only the assertion-id cache stands between.
    const state = await createSsoTransaction(host.deps, { tenantId: tenant.tenantId, providerType: 'saml', client: { redirectUri: BACK }, samlRequestId: start.requestId });
    expect((await post(response, state)).status).toBe(401);
  });

  it('refuses the signature-wrapping shapes: an unsigned assertion beside, or around, the signed one', async () => {
    const evilAssertion = (signedXml: string) => {
      const original = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedXml)![0];
      return original
        .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '')
        .replace(/ID="[^"]+"/, `ID="_evil${randomBytes(8).toString('hex')}"`)
        .replaceAll(`user@${tenant.domain}`, `admin@${tenant.domain}`);
    };

    const a = await startLogin();
    const signed = decode(await samlResponse({ requestId: a.requestId }));
    const beside = signed.replace('<saml:Assertion', `${evilAssertion(signed)}<saml:Assertion`);
    expect(beside.match(/<saml:Assertion /g)).toHaveLength(2);
    expect((await post(encode(beside), a.relayState)).status).toBe(401);

    const b = await startLogin();
    const signedB = decode(await samlResponse({ requestId: b.requestId }));
    const originalB = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedB)![0];
    // The evil assertion takes the signed one's place and carries it inside (in Advice).
    const around = signedB.replace(originalB, evilAssertion(signedB).replace('</saml:Conditions>', `</saml:Conditions><saml:Advice>${originalB}</saml:Advice>`));
    expect((await post(encode(around), b.relayState)).status).toBe(401);

    const c = await startLogin();
    const signedC = decode(await samlResponse({ requestId: c.requestId }));
    // The signed assertion hidden in the response's Extensions, the evil one in its place.
    const originalC = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedC)![0];
    const hidden = signedC.replace(originalC, evilAssertion(signedC)).replace('<samlp:Status>', `<samlp:Extensions>${originalC}</samlp:Extensions><samlp:Status>`);
    expect((await post(encode(hidden), c.relayState)).status).toBe(401);

    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.filter((e) => e.action === 'login_succeeded' && e.target_id === tenant.admin.id && (e.payload as { method?: string }).method === 'sso')).toHaveLength(0);
    // Each refused answer is a login failure in the identity log.
    expect(events.items.filter((e) => e.action === 'login_failed' && (e.payload as { reason?: string }).reason === 'invalid_response').length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a body that is not a form', async () => {
    const res = await http.request('POST', `/v1/auth/sso/${tenant.slug}/callback`, { body: { SAMLResponse: 'x', RelayState: 'y' } });
    expect(res.status).toBe(400);
  });

  it('signs the AuthnRequest when the IdP metadata wants it, with the key its SP metadata publishes', async () => {
    const wantsSigned = idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: IDP_SSO, certBody: key.certBody, wantAuthnRequestsSigned: true });
    const patched = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { saml_metadata: wantsSigned } });
    expect(patched.status, patched.text).toBe(200);
    const metadata = await http.request('GET', `/v1/auth/sso/${tenant.slug}/metadata`);
    expect(metadata.text).toContain('AuthnRequestsSigned="true"');
    expect(metadata.text).toMatch(/KeyDescriptor use="signing"[\s\S]*X509Certificate>[A-Za-z0-9+/=]{500,}</);
    const signingSp = samlify.ServiceProvider({ metadata: metadata.text });
    const signingIdp = samlify.IdentityProvider({ metadata: wantsSigned, privateKey: key.privateKey });

    const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
    expect(res.status, res.text).toBe(302);
    const location = res.headers.location!;
    const url = new URL(location);
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(url.searchParams.get('Signature')).toBeTruthy();
    const octetString = location.split('?')[1]!.split('&').filter((p) => !p.startsWith('Signature=')).join('&');
    const parsed = await signingIdp.parseLoginRequest(signingSp, 'redirect', { query: Object.fromEntries(url.searchParams), octetString });
    const requestId = (parsed.extract.request as { id: string }).id;
    // The IdP really checks it: another RelayState breaks the signature.
    const forged = octetString.replace(/RelayState=[^&]+/, 'RelayState=forged');
    await expect(signingIdp.parseLoginRequest(signingSp, 'redirect', { query: { ...Object.fromEntries(url.searchParams), RelayState: 'forged' }, octetString: forged })).rejects.toThrow();

    const back = await post(await samlResponse({ requestId, email: `signed@${tenant.domain}` }), url.searchParams.get('RelayState')!);
    expect(back.status, back.text).toBe(302);
  });
});
