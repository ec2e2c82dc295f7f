/**
 * The SAML assertion consumer as its Lambda bundle carries it (infra/bundle-options.ts settings
 * for `sso-callback-post`: samlify without node-rsa and @authenio/xml-encryption, one copy of
 * xpath, infra/samlify-post-consumer-plugin.ts). Bundled and run in a child process, the
 * consumer decides every response here as the unbundled module does: it signs in with a
 * response signed by a real IdP key (over the assertion or the whole response), and refuses a
 * tampered or wrongly signed one, a signature-wrapped one and an encrypted assertion with the
 * same problem. The stubs throw where samlify would reach them: Redirect-binding signatures,
 * assertion decryption, writing messages and writing metadata.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions, projectRoot } from '../../infra/bundle-options';
import type { Deps } from '../../shared/deps';
import { SsoResponseError } from '../../shared/identity/sso/login-transactions';
import { completeSamlLogin } from '../../shared/identity/sso/saml-response';
import type { IdpConfigRecord, SamlSettingsRecord, SsoTransactionRecord, TenantRecord } from '../../shared/store/records';
import { ACS, IDP_ENTITY, PUBLIC_URL, REQUEST_ID, SLUG, SP_ENTITY, idpMetadataXml, samlSettingsRecord, signSamlXml, signingIdentity, type SigningIdentity } from '../support/saml-idp';
import { makeBundleBuildDir, removeBundleBuildDir } from '../support/bundle-build-dir';

const run = promisify(execFile);

const ASSERTION_PATH = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";
const RESPONSE_PATH = "/*[local-name(.)='Response']";

/** What the bundle and the unbundled module are both given: the cases, and the records they are decided against. */
interface ProbeInput {
  responses: Record<string, string>;
  tenant: TenantRecord;
  idp: IdpConfigRecord & { saml: SamlSettingsRecord };
  transaction: SsoTransactionRecord;
  /** For the probe's own entities: the SP as the consumer builds it, an IdP that could sign. */
  config: { publicUrl: string };
  idpKey: string;
}

/** The problem a refusal answers with (class names do not survive minifying: whether it is the module's SsoResponseError instead). */
interface Refusal {
  ssoResponseError: boolean;
  code: string;
  status: number;
  reason: string | undefined;
  message: string;
}

/** How a case was decided: the login or the problem, with what was logged and stored. */
type Outcome = { login?: unknown; refused?: Refusal; logged: string[]; stored: number };

/**
 * Decides each response with `consume` against a fresh in-memory table and logger. Its source is
 * also written, as is, into the bundled probe, so both sides run the same harness: it may use
 * no binding from this file (hence the public URL spelled out).
 */
async function decideAll(consume: typeof completeSamlLogin, responseError: typeof SsoResponseError, input: ProbeInput): Promise<Record<string, Outcome>> {
  const outcomes: Record<string, Outcome> = {};
  for (const [name, xml] of Object.entries(input.responses)) {
    const logged: string[] = [];
    let stored = 0;
    const deps = {
      config: { publicUrl: 'https://tessera.test' },
      clock: { now: () => new Date() },
      table: { put: () => { stored += 1; return Promise.resolve({}); } },
      observability: { logger: { info: (_message: string, attributes: { reason: string }) => logged.push(attributes.reason) } },
    } as unknown as Deps;
    try {
      const login = await consume(deps, input.tenant, input.idp, input.transaction, { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: 'relay' });
      outcomes[name] = { login, logged, stored };
    } catch (error) {
      const { code, status, reason, message } = error as SsoResponseError;
      outcomes[name] = { refused: { ssoResponseError: error instanceof responseError, code, status, reason, message }, logged, stored };
    }
  }
  return outcomes;
}

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

function responseXml(nameId = 'p-0001'): string {
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}" Destination="${ACS}" InResponseTo="${REQUEST_ID}">` +
    `<saml:Issuer>${IDP_ENTITY}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_a${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}"><saml:Issuer>${IDP_ENTITY}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(300_000)}" Recipient="${ACS}" InResponseTo="${REQUEST_ID}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(-1000)}" NotOnOrAfter="${iso(300_000)}"><saml:AudienceRestriction><saml:Audience>${SP_ENTITY}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(-5000)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>user@acme.test</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`
  );
}

function sign(key: SigningIdentity, xml: string, reference: string): string {
  return signSamlXml(key, xml, reference, `${reference}/*[local-name(.)='Issuer']`);
}

describe('Lambda bundle of the SAML assertion consumer', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeBundleBuildDir('saml-consumer-test-');
  });
  afterAll(() => {
    removeBundleBuildDir(dir);
  });

  it('carries neither node-rsa, xml-encryption, xml nor the message writers, and one xpath; decides responses as the module does, and its stubs throw when reached', async () => {
    const key = signingIdentity('bundle-saml-idp');
    const otherKey = signingIdentity('another-idp');
    const metadata = idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.test/sso', certBody: key.certBody });
    const assertionSigned = sign(key, responseXml(), ASSERTION_PATH);
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(assertionSigned)![0];
    const responses: Record<string, string> = {
      'assertion-signed': assertionSigned,
      'response-signed': sign(key, responseXml('p-0002'), RESPONSE_PATH),
      tampered: assertionSigned.replace('>p-0001<', '>p-9999<'),
      'response-tampered': sign(key, responseXml('p-0003'), RESPONSE_PATH).replace('>p-0003<', '>p-9999<'),
      // The signature's reference names an id that no element carries any more.
      'reference-elsewhere': assertionSigned.replace(/<saml:Assertion ID="([^"]+)"/, '<saml:Assertion ID="$1-moved"'),
      'other-key': sign(otherKey, responseXml(), ASSERTION_PATH),
      // The signed assertion kept inside Extensions, an unsigned one with another subject in its place.
      wrapped: assertionSigned
        .replace(signedAssertion, responseXml('p-evil').match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0])
        .replace('<samlp:Status>', `<samlp:Extensions>${signedAssertion}</samlp:Extensions><samlp:Status>`),
      // An assertion encrypted for the SP: refused before samlify, which here could not decrypt it.
      encrypted: assertionSigned.replace(signedAssertion, '<saml:EncryptedAssertion><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"><xenc:CipherData><xenc:CipherValue>AAAA</xenc:CipherValue></xenc:CipherData></xenc:EncryptedData></saml:EncryptedAssertion>'),
    };
    const saml = samlSettingsRecord({ metadata, entityId: IDP_ENTITY, ssoUrl: 'https://idp.test/sso', certBody: key.certBody });
    const input: ProbeInput = {
      responses,
      tenant: { id: 'ten_bundle', slug: SLUG, name: 'Acme', email_domains: ['acme.test'], created_at: '', updated_at: '' },
      idp: { saml, saml_subject_attribute: null } as IdpConfigRecord & { saml: SamlSettingsRecord },
      transaction: { saml_request_id: REQUEST_ID } as SsoTransactionRecord,
      config: { publicUrl: PUBLIC_URL },
      idpKey: key.privateKey,
    };
    const inputFile = path.join(dir, 'input.json');
    writeFileSync(inputFile, JSON.stringify(input));

    const entry = path.join(dir, 'probe.ts');
    const sso = (module: string) => path.relative(dir, path.join(projectRoot, 'shared', 'identity', 'sso', module)).split(path.sep).join('/');
    writeFileSync(
      entry,
      [
        "import { readFileSync } from 'node:fs';",
        "import { deflateRawSync } from 'node:zlib';",
        "import samlify from 'samlify';",
        `import { SsoResponseError } from '${sso('login-transactions')}';`,
        `import { completeSamlLogin } from '${sso('saml-response')}';`,
        `import { serviceProviderFor } from '${sso('saml-entities')}';`,
        `const decideAll = ${decideAll.toString()};`,
        'const input = JSON.parse(readFileSync(process.argv[2]!, "utf8"));',
        'const outcomes = await decideAll(completeSamlLogin, SsoResponseError, input);',
        'const thrown = async (f: () => unknown) => { try { await f(); return "ran"; } catch (error) { return (error as Error).message; } };',
        'const idp = samlify.IdentityProvider({ metadata: input.idp.saml.metadata });',
        'const sp = serviceProviderFor(input.config, input.tenant.slug);',
        "const deflated = encodeURIComponent(deflateRawSync(input.responses['assertion-signed']).toString('base64'));",
        'const stubs = {',
        "  'redirect-binding': await thrown(() => sp.parseLoginResponse(idp, 'redirect', { query: { SAMLResponse: deflated, Signature: 'c2ln', SigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256' }, octetString: `SAMLResponse=${deflated}` })),",
        "  'redirect-signature': await thrown(() => samlify.SamlLib.verifyMessageSignature(idp.entityMeta, 'SAMLResponse=x', Buffer.from('sig'))),",
        "  'decrypt-assertion': await thrown(() => samlify.SamlLib.decryptAssertion(sp, input.responses.encrypted)),",
        "  'request-writing': await thrown(() => sp.createLoginRequest(idp, 'redirect')),",
        "  'response-writing': await thrown(() => samlify.IdentityProvider({ metadata: input.idp.saml.metadata, privateKey: input.idpKey }).createLoginResponse(sp, { extract: { request: { id: 'r' } } }, 'post', {})),",
        "  'metadata-writing': await thrown(() => samlify.ServiceProvider({ entityID: 'https://tessera.test/sp' })),",
        "  'encrypted-idp': await thrown(() => sp.parseLoginResponse(samlify.IdentityProvider({ metadata: input.idp.saml.metadata, isAssertionEncrypted: true }), 'post', { body: { SAMLResponse: Buffer.from(input.responses.encrypted).toString('base64') } })),",
        '};',
        'console.log(JSON.stringify({ outcomes, stubs }));',
      ].join('\n'),
    );
    const result = await build({ ...lambdaBuildOptions('sso-callback-post'), entryPoints: [entry], outfile: path.join(dir, 'probe.mjs'), metafile: true });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('node_modules/samlify/'))).toBe(true);
    expect(inputs.filter((input) => /node_modules\/(node-rsa|asn1|@authenio\/xml-encryption|xml)\//.test(input))).toEqual([]);
    // The binding modules keep their paths, with a stub's source (some hundred bytes) for their own.
    const bindings = inputs.filter((input) => /node_modules\/samlify\/build\/src\/binding-/.test(input));
    expect(bindings).toHaveLength(3);
    for (const binding of bindings) expect(result.metafile.inputs[binding]!.bytes, binding).toBeLessThan(1000);
    const xpathCopies = new Set(inputs.flatMap((input) => /^(.*node_modules\/xpath)\//.exec(input)?.[1] ?? []));
    expect([...xpathCopies]).toHaveLength(1);
    expect([...xpathCopies][0]).not.toMatch(/node_modules\/.+\/node_modules\/xpath$/);

    const { stdout } = await run(process.execPath, [path.join(dir, 'probe.mjs'), inputFile], { cwd: dir });
    const bundled = JSON.parse(stdout) as { outcomes: Record<string, Outcome>; stubs: Record<string, string> };

    const unbundled = await decideAll(completeSamlLogin, SsoResponseError, input);
    expect(bundled.outcomes).toEqual(unbundled);
    expect(bundled.outcomes['assertion-signed']).toMatchObject({ login: { subject: 'p-0001', email: 'user@acme.test' }, logged: [], stored: 1 });
    expect(bundled.outcomes['response-signed']).toMatchObject({ login: { subject: 'p-0002' }, stored: 1 });
    const invalid = { ssoResponseError: true, code: 'unauthenticated', status: 401, reason: 'invalid_response', message: 'The single sign-on response is not valid; start the login again' };
    for (const name of ['tampered', 'response-tampered', 'reference-elsewhere', 'other-key']) expect(bundled.outcomes[name], name).toEqual({ refused: invalid, logged: [expect.stringMatching(/^Error: /)], stored: 0 });
    // Refused by the module's own document checks, before samlify ran: nothing logged.
    for (const name of ['wrapped', 'encrypted']) expect(bundled.outcomes[name], name).toEqual({ refused: invalid, logged: [], stored: 0 });

    expect(bundled.stubs).toEqual({
      'redirect-signature': expect.stringContaining('without Redirect-binding signatures'),
      'redirect-binding': expect.stringContaining('without Redirect-binding signatures'),
      'decrypt-assertion': expect.stringContaining('without assertion encryption'),
      'encrypted-idp': expect.stringContaining('without assertion encryption'),
      'request-writing': expect.stringContaining('without message writing'),
      'response-writing': expect.stringContaining('without message writing'),
      'metadata-writing': expect.stringContaining('without metadata writing'),
    });
  });
});
