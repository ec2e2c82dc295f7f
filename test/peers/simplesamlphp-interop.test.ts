/**
 * Interoperability with a SAML IdP nobody here wrote: SimpleSAMLphp 1.19 from Debian's
 * packages, with its out-of-the-box exampleauth:UserPass IdP, driven like a browser over
 * HTTP (cookies, its login form, its auto-submitting POST form): start → the IdP's login form
 * → Tessera's ACS → the application's redirect_uri → sso_code exchange → /v1/me.
 *
 * Skipped (saying so) only where php is missing and CI is not set: in CI it must run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIdpMetadata } from '../../shared/identity/sso/saml-idp-metadata';
import { Browser } from '../support/browser';
import { formsOf } from '../support/html-forms';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { samlifyReading } from '../support/saml-idp';
import { requireSimpleSamlPhp, startSimpleSamlPhp, type SimpleSamlPhp } from '../support/simplesamlphp';
import { startTestHost, type TestHost } from '../support/test-host';

const missing = requireSimpleSamlPhp('The SimpleSAMLphp interop test');

const BACK = 'https://app.example.com/sso/done';
const OID_UID = 'urn:oid:0.9.2342.19200300.100.1.1';

let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let adminToken: string;
let idp: SimpleSamlPhp;

describe.skipIf(missing !== undefined)('single sign-on with SimpleSAMLphp 1.19 (Debian package, php -S)', () => {
  beforeAll(async () => {
    const clock = new MovableClock();
    host = await startTestHost({ clock });
    http = api(host.url);
    tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    // The stock example users (uid, eduPersonAffiliation), each with a mail in the tenant's domain.
    const user = (username: string) => ({ username, password: `${username}pass`, attributes: { uid: [username], eduPersonAffiliation: ['member', username], mail: [`${username}@${tenant.domain}`] } });
    idp = await startSimpleSamlPhp({ users: ['student', 'employee', 'member', 'guest'].map(user) });
    const created = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
      token: adminToken,
      body: { provider_type: 'saml', saml_metadata: await idp.idpMetadata(), email_domains: [tenant.domain], allowed_redirect_uris: [BACK], active: true },
    });
    expect(created.status, created.text).toBe(201);
  });
  afterAll(async () => {
    await idp?.close();
    await host?.close();
  });

  it("reads SimpleSAMLphp's metadata as samlify does (the assertion consumer verifies with samlify's reading)", async () => {
    const xml = await idp.idpMetadata();
    expect(parseIdpMetadata(xml)).toEqual(samlifyReading(xml));
    expect(parseIdpMetadata(xml).entity_id).toBe(idp.entityId);
  });

  /** Sets both ends of a case: the IdP's hosted and SP-remote metadata, Tessera's subject attribute. */
  async function configure(input: { idpHosted?: string; spRemote?: string; subjectAttribute: string | null }) {
    await idp.configureIdp(input.idpHosted);
    const spMetadata = await http.request('GET', `/v1/auth/sso/${tenant.slug}/metadata`);
    expect(spMetadata.status).toBe(200);
    await idp.registerSp(spMetadata.text, input.spRemote);
    const patched = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { saml_subject_attribute: input.subjectAttribute } });
    expect(patched.status, patched.text).toBe(200);
  }

  /** A browser's walk from the application's "Sign in" to where Tessera sends it back. */
  async function signIn(username: string): Promise<{ back: URL; assertion: string }> {
    const browser = new Browser();
    const start = await browser.get(`${host.url}/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}&state=app-state-1`);
    expect(start.status, start.text).toBe(302);
    expect(start.location!.startsWith(`${idp.url}/saml2/idp/SSOService.php?`)).toBe(true);

    // SimpleSAMLphp sends the browser to its login form.
    let page = await browser.get(start.location!);
    let pageUrl = start.location!;
    while (page.location) {
      pageUrl = page.location;
      page = await browser.get(pageUrl);
    }
    const loginForm = formsOf(page.text, pageUrl).find((f) => 'username' in f.fields && 'password' in f.fields);
    expect(loginForm, `no login form at ${pageUrl}:\n${page.text.slice(0, 2000)}`).toBeDefined();

    // Submitting it ends on the HTTP-POST binding page: a form to Tessera's ACS.
    let answer = await browser.postForm(loginForm!.action, { ...loginForm!.fields, username, password: `${username}pass` });
    pageUrl = loginForm!.action;
    while (answer.location) {
      pageUrl = answer.location;
      answer = await browser.get(pageUrl);
    }
    const post = formsOf(answer.text, pageUrl).find((f) => 'SAMLResponse' in f.fields);
    expect(post, `no SAMLResponse form after the login:\n${answer.text.slice(0, 2000)}\n${(await idp.log()).slice(-3000)}`).toBeDefined();
    expect(post!.action).toBe(`${host.url}/v1/auth/sso/${tenant.slug}/callback`);

    const acs = await browser.postForm(post!.action, post!.fields);
    expect(acs.status, acs.text).toBe(302);
    const back = new URL(acs.location!);
    expect(`${back.origin}${back.pathname}`).toBe(BACK);
    expect(back.searchParams.get('state')).toBe('app-state-1');
    return { back, assertion: Buffer.from(post!.fields.SAMLResponse!, 'base64').toString('utf8') };
  }

  async function me(back: URL): Promise<{ id: string; email: string; role: string }> {
    expect(back.searchParams.get('error'), back.searchParams.get('error_description') ?? '').toBeNull();
    const tokens = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code: back.searchParams.get('code') } });
    expect(tokens.status, tokens.text).toBe(200);
    const res = await http.request('GET', '/v1/me', { token: (tokens.body as { access_token: string }).access_token });
    expect(res.status).toBe(200);
    return res.body as { id: string; email: string; role: string };
  }

  it("with the IdP's defaults: a transient NameID, and uid named as saml_subject_attribute", async () => {
    await configure({ subjectAttribute: 'uid' });
    const first = await signIn('student');
    expect(first.assertion).toContain('Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient"');
    const user = await me(first.back);
    expect(user).toMatchObject({ email: `student@${tenant.domain}`, role: 'viewer' });
    // Another transient NameID next time: still the same person, through uid.
    expect((await me((await signIn('student')).back)).id).toBe(user.id);
  });

  it('with a persistent NameID (saml:PersistentNameID from uid) and no subject attribute in Tessera', async () => {
    await configure({
      subjectAttribute: null,
      spRemote: `'NameIDFormat' => 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
'authproc' => [20 => ['class' => 'saml:PersistentNameID', 'attribute' => 'uid']],`,
    });
    const first = await signIn('employee');
    expect(first.assertion).toContain('Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"');
    const user = await me(first.back);
    expect(user.email).toBe(`employee@${tenant.domain}`);
    expect((await me((await signIn('employee')).back)).id).toBe(user.id);
  });

  it('with urn:oid attribute names (the uri name format): subject and email from their OIDs', async () => {
    await configure({
      subjectAttribute: OID_UID,
      // The commented-out block of the stock saml20-idp-hosted.php template, switched on.
      idpHosted: `'attributes.NameFormat' => 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri',
'authproc' => [100 => ['class' => 'core:AttributeMap', 'name2oid']],`,
    });
    const { back, assertion } = await signIn('member');
    expect(assertion).toContain(`Name="${OID_UID}"`);
    expect(assertion).toContain('Name="urn:oid:0.9.2342.19200300.100.1.3"');
    expect(assertion).not.toContain('Name="mail"');
    expect((await me(back)).email).toBe(`member@${tenant.domain}`);
  });

  it('without a stable subject (transient NameID, no subject attribute): back at the application with an error that names the fix', async () => {
    await configure({ subjectAttribute: null });
    const { back } = await signIn('guest');
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toMatch(/transient NameID.*saml_subject_attribute/);
  });

  it("with signed AuthnRequests (validate.authnrequest): SimpleSAMLphp checks Tessera's signature against the key in its SP metadata", async () => {
    const unsigned = await idp.idpMetadata();
    await idp.configureIdp("'validate.authnrequest' => true,");
    const wantsSigned = await idp.idpMetadata();
    expect(wantsSigned).toContain('WantAuthnRequestsSigned="true"');
    try {
      const patched = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { saml_metadata: wantsSigned } });
      expect(patched.status, patched.text).toBe(200);
      await configure({ idpHosted: "'validate.authnrequest' => true,", subjectAttribute: 'uid' });
      expect((await me((await signIn('student')).back)).email).toBe(`student@${tenant.domain}`);

      // It really checks: the same request with another RelayState (the signature no longer covers it) is refused.
      const start = await new Browser().get(`${host.url}/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
      expect(new URL(start.location!).searchParams.get('Signature')).toBeTruthy();
      const forged = start.location!.replace(/RelayState=[^&]+/, 'RelayState=forged');
      const refused = await new Browser().get(forged);
      expect(refused.location).toBeUndefined();
      expect(formsOf(refused.text, forged).find((f) => 'username' in f.fields)).toBeUndefined();
      expect(await idp.log()).toMatch(/signature/i);
    } finally {
      await idp.configureIdp();
      await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { saml_metadata: unsigned } });
    }
  });
});
