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
import { ssoErrorOf } from '../support/sso-answers';
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
  [key, otherKey] = [signingIdentity('saml-idp'), signingIdentity('impostor')];
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
  nameId?: string;
  /** Attributes (Name → value) instead of the default `email` one. */
  attributes?: Record<string, string>;
  /** Another top-level status than Success (the IdP did not sign the user in). */
  status?: string;
  /** When the IdP says the user signed in (default: now). */
  authnInstant?: Date;
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
    StatusCode: o.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success',
    ConditionsNotBefore: (o.notBefore ?? new Date(now.getTime() - 1000)).toISOString(),
    ConditionsNotOnOrAfter: notOnOrAfter,
    SubjectConfirmationDataNotOnOrAfter: notOnOrAfter,
    NameIDFormat: o.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    NameID: o.nameId ?? `subject-${email}`,
    InResponseTo: o.requestId,
  };
  // XML fragments go in as they are (replaceTagsByValue escapes what it inserts).
  const fragments = {
    AuthnStatement: `<saml:AuthnStatement AuthnInstant="${(o.authnInstant ?? now).toISOString()}" SessionIndex="_session"><saml:AuthnContext><saml:AuthnContextClassRef>${o.classRef ?? 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
    AttributeStatement: `<saml:AttributeStatement>${Object.entries(o.attributes ?? { email })
      .map(([name, value]) => `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:${name.includes(':') ? 'uri' : 'basic'}"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`)
      .join('')}</saml:AttributeStatement>`,
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

/** A refused answer goes back to the application with `error`, never with a code. */
const refused = (res: Awaited<ReturnType<typeof post>>) => ssoErrorOf(res, BACK);

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
    // Back at the application, which can tell the user; never a code.
    expect(ssoErrorOf(res, BACK)).toBe('The single sign-on response is not valid; start the login again');

    const b = await startLogin();
    refused(await post(await samlResponse({ requestId: b.requestId, signer: impostor }), b.relayState));
    // The impostor's signature without its certificate in KeyInfo: checked against the metadata key.
    const c = await startLogin();
    const noKeyInfo = decode(await samlResponse({ requestId: c.requestId, signer: impostor })).replace(/<ds:KeyInfo>[\s\S]*?<\/ds:KeyInfo>/g, '');
    refused(await post(encode(noKeyInfo), c.relayState));
  });

  it('refuses an AuthnInstant later than now + 60 s (a skewed or hostile IdP); one within the minute signs in', async () => {
    const ahead = await startLogin();
    const refusedAnswer = await post(await samlResponse({ requestId: ahead.requestId, authnInstant: new Date(clock.now().getTime() + 3_600_000) }), ahead.relayState);
    expect(refused(refusedAnswer)).toMatch(/sign-in happened in the future/);
    const close = await startLogin();
    const accepted = await post(await samlResponse({ requestId: close.requestId, authnInstant: new Date(clock.now().getTime() + 30_000) }), close.relayState);
    expect((await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code: codeOf(accepted.headers.location) } })).status).toBe(200);
  });

  it('refuses another audience, another recipient, an expired and a not-yet-valid assertion', async () => {
    const cases: Omit<ResponseOptions, 'requestId'>[] = [
      { audience: 'https://another-sp.example/metadata' },
      { recipient: 'https://another-sp.example/acs' },
      { notBefore: new Date(Date.now() - 20 * 60_000), notOnOrAfter: new Date(Date.now() - 10 * 60_000) },
      { notBefore: new Date(Date.now() + 10 * 60_000), notOnOrAfter: new Date(Date.now() + 20 * 60_000) },
    ];
    for (const options of cases) {
      const start = await startLogin();
      const res = await post(await samlResponse({ requestId: start.requestId, ...options }), start.relayState);
      expect(ssoErrorOf(res, BACK), JSON.stringify(options)).toMatch(/not valid/);
    }
    // Within the skew (10 s late) still passes.
    const start = await startLogin();
    const late = await post(await samlResponse({ requestId: start.requestId, notOnOrAfter: new Date(Date.now() - 10_000) }), start.relayState);
    expect(late.status, late.text).toBe(302);
  });

  it('refuses a response to another request, and to none of ours', async () => {
    const a = await startLogin();
    const b = await startLogin();
    refused(await post(await samlResponse({ requestId: b.requestId }), a.relayState));
    const c = await startLogin();
    refused(await post(await samlResponse({ requestId: '_not-a-request-we-made' }), c.relayState));
    // No login in flight has this RelayState: nowhere known to send the browser, so problem+json.
    const unknown = await post(await samlResponse({ requestId: b.requestId }), randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(401);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
  });

  it('refuses a replayed assertion, even when it would answer a live request', async () => {
    const start = await startLogin();
    const response = await samlResponse({ requestId: start.requestId, email: `replay@${tenant.domain}` });
    expect((await post(response, start.relayState)).status).toBe(302);
    // The login transaction is gone with the first use.
    expect((await post(response, start.relayState)).status).toBe(401);
    // A transaction waiting for the same request id: only the assertion-id cache stands between.
    const state = await createSsoTransaction(host.deps, { tenantId: tenant.tenantId, providerType: 'saml', client: { redirectUri: BACK }, samlRequestId: start.requestId });
    refused(await post(response, state));
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
    refused(await post(encode(beside), a.relayState));

    const b = await startLogin();
    const signedB = decode(await samlResponse({ requestId: b.requestId }));
    const originalB = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedB)![0];
    // The evil assertion takes the signed one's place and carries it inside (in Advice).
    const around = signedB.replace(originalB, evilAssertion(signedB).replace('</saml:Conditions>', `</saml:Conditions><saml:Advice>${originalB}</saml:Advice>`));
    refused(await post(encode(around), b.relayState));

    const c = await startLogin();
    const signedC = decode(await samlResponse({ requestId: c.requestId }));
    // The signed assertion hidden in the response's Extensions, the evil one in its place.
    const originalC = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedC)![0];
    const hidden = signedC.replace(originalC, evilAssertion(signedC)).replace('<samlp:Status>', `<samlp:Extensions>${originalC}</samlp:Extensions><samlp:Status>`);
    refused(await post(encode(hidden), c.relayState));

    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.filter((e) => e.action === 'login_succeeded' && e.target_id === tenant.admin.id && (e.payload as { method?: string }).method === 'sso')).toHaveLength(0);
    // Each refused answer is a login failure in the identity log.
    expect(events.items.filter((e) => e.action === 'login_failed' && (e.payload as { reason?: string }).reason === 'invalid_response').length).toBeGreaterThanOrEqual(3);
  });

  it('asks the IdP for an unspecified NameID, and publishes unspecified first in its metadata', async () => {
    const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
    const request = (await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(new URL(res.headers.location!).searchParams) })).samlContent;
    expect(request).toMatch(/<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"/);
    const metadata = (await http.request('GET', `/v1/auth/sso/${tenant.slug}/metadata`)).text;
    expect([...metadata.matchAll(/<(?:md:)?NameIDFormat>([^<]+)</g)].map((m) => m[1])).toEqual([
      'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    ]);
  });

  describe('the subject: persistent NameID, subject-id/pairwise-id, saml_subject_attribute, else a non-transient NameID', () => {
    const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
    const EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
    const signIn = async (options: Omit<ResponseOptions, 'requestId'>) => {
      const start = await startLogin();
      return post(await samlResponse({ requestId: start.requestId, ...options }), start.relayState);
    };
    const meOf = async (res: Awaited<ReturnType<typeof post>>) => {
      const tokens = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code: codeOf(res.headers.location) } });
      return (await http.request('GET', '/v1/me', { token: (tokens.body as { access_token: string }).access_token })).body as { id: string; email: string };
    };
    const setSubjectAttribute = async (value: string | null) => {
      const res = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { saml_subject_attribute: value } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ saml_subject_attribute: value });
    };

    it('refuses a transient NameID alone, saying which setting fixes it, and audits why', async () => {
      const res = await signIn({ nameIdFormat: TRANSIENT, nameId: `_${randomBytes(8).toString('hex')}`, attributes: { uid: 'tina', mail: `tina@${tenant.domain}` } });
      expect(refused(res)).toMatch(/only by a transient NameID.*set saml_subject_attribute .*\(e\.g\. uid\), or have the identity provider send a persistent NameID/);
      const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
      expect(events.items.find((e) => e.action === 'login_failed' && (e.payload as { reason?: string }).reason === 'no_stable_subject')).toBeDefined();
    });

    it('takes the attribute saml_subject_attribute names beside a transient NameID: the same person at every login; null clears it', async () => {
      await setSubjectAttribute('uid');
      const login = () => signIn({ nameIdFormat: TRANSIENT, nameId: `_${randomBytes(8).toString('hex')}`, attributes: { uid: 'ulla', mail: `ulla@${tenant.domain}` } });
      const first = await meOf(await login());
      expect(first.email).toBe(`ulla@${tenant.domain}`);
      expect((await meOf(await login())).id).toBe(first.id);
      // Named but not sent: refused with the attribute's name.
      expect(refused(await signIn({ nameIdFormat: TRANSIENT, nameId: '_x1', attributes: { mail: `ulla@${tenant.domain}` } }))).toMatch(/sent no uid attribute/);
      await setSubjectAttribute(null);
      refused(await login());
    });

    it('prefers subject-id / pairwise-id over the NameID, a persistent NameID over both', async () => {
      const viaSubjectId = await meOf(await signIn({ nameIdFormat: TRANSIENT, nameId: '_t1', attributes: { 'urn:oasis:names:tc:SAML:attribute:subject-id': `sid-1@${tenant.domain}`, mail: `sid@${tenant.domain}` } }));
      expect((await meOf(await signIn({ nameIdFormat: EMAIL, nameId: `other@${tenant.domain}`, attributes: { 'urn:oasis:names:tc:SAML:attribute:subject-id': `sid-1@${tenant.domain}` } }))).id).toBe(viaSubjectId.id);
      const pairwise = await meOf(await signIn({ nameIdFormat: TRANSIENT, nameId: '_t2', attributes: { 'urn:oasis:names:tc:SAML:attribute:pairwise-id': 'pw-77', email: `pw@${tenant.domain}` } }));
      expect(pairwise.email).toBe(`pw@${tenant.domain}`);
      // A persistent NameID wins over a subject-id attribute.
      const persistent = await meOf(await signIn({ nameId: 'persistent-1', attributes: { 'urn:oasis:names:tc:SAML:attribute:subject-id': `sid-1@${tenant.domain}`, email: `pn@${tenant.domain}` } }));
      expect(persistent.id).not.toBe(viaSubjectId.id);
    });

    it('reads the email from an emailAddress NameID or the usual attribute names (urn:oid, the claim URI)', async () => {
      expect((await meOf(await signIn({ nameIdFormat: EMAIL, nameId: `enid@${tenant.domain}`, attributes: { displayName: 'Enid' } }))).email).toBe(`enid@${tenant.domain}`);
      expect((await meOf(await signIn({ nameId: 'p-oid', attributes: { 'urn:oid:0.9.2342.19200300.100.1.3': `oid@${tenant.domain}` } }))).email).toBe(`oid@${tenant.domain}`);
      expect((await meOf(await signIn({ nameId: 'p-claim', attributes: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': `claim@${tenant.domain}` } }))).email).toBe(`claim@${tenant.domain}`);
    });

    it('validates saml_subject_attribute', async () => {
      for (const value of ['', 'has space', 'x'.repeat(257), 42]) {
        const res = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { saml_subject_attribute: value } });
        expect(res.status, String(value)).toBe(400);
        expect((res.body as { errors: { path: string }[] }).errors[0]!.path).toBe('saml_subject_attribute');
      }
    });
  });

  it('sends an IdP that did not sign the user in back to the application with what it said', async () => {
    const start = await startLogin();
    const res = await post(await samlResponse({ requestId: start.requestId, status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }), start.relayState);
    expect(refused(res)).toBe('The identity provider did not sign you in (Responder)');
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
