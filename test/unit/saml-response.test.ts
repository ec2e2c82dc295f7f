/**
 * The SAML assertion consumer (shared/identity/sso/saml-response.ts) on responses built here
 * element by element and signed with a real IdP key: each check the SP adds to samlify's
 * (one assertion, Destination, InResponseTo, issuer, Subject, bearer confirmation, Conditions
 * on our clock, audience, replay) refuses the one shape that breaks it, with the reason it
 * logs; what a good response yields (subject, email, amr, acr, auth time) for each source the
 * README lists. samlify checks times on the real clock, the module on `deps.clock`: moving the
 * latter tests our own window checks.
 */
import { randomBytes } from 'node:crypto';
import samlify from 'samlify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../shared/deps';
import { SsoResponseError } from '../../shared/identity/sso/login-transactions';
import { completeSamlLogin } from '../../shared/identity/sso/saml-response';
import type { IdpConfigRecord, SamlSettingsRecord, SsoTransactionRecord, TenantRecord } from '../../shared/store/records';
import { MovableClock } from '../support/movable-clock';
import { ACS, IDP_ENTITY, PUBLIC_URL, REQUEST_ID, SLUG, SP_ENTITY, idpMetadataXml, samlSettingsRecord, signSamlXml, signingIdentity, type SigningIdentity } from '../support/saml-idp';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

let key: SigningIdentity;
let metadata: string;

beforeAll(() => {
  key = signingIdentity('unit-saml-idp');
  metadata = idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.test/sso', certBody: key.certBody });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

interface Shape {
  /** Attributes of the Response element besides ID, Version, IssueInstant. */
  responseAttributes?: string;
  status?: string;
  /** Elements between the Response's Issuer and its Status (samlp:Extensions). */
  extensions?: string;
  assertionIssuer?: string;
  /** The whole Subject element ('' for none). */
  subject?: string;
  nameId?: string;
  confirmation?: string;
  /** The whole Conditions element ('' for none). */
  conditions?: string;
  audience?: string;
  /** The whole AuthnStatement ('' for none). */
  authn?: string;
  attributes?: [string, string[]][];
  /** What carries the signature: the assertion (default), the response, nothing. */
  signed?: 'assertion' | 'response' | 'none';
}

const nameIdXml = (value: string, format = PERSISTENT) => `<saml:NameID Format="${format}">${value}</saml:NameID>`;
const confirmationXml = (data = `NotOnOrAfter="${iso(300_000)}" Recipient="${ACS}" InResponseTo="${REQUEST_ID}"`, method = BEARER) =>
  `<saml:SubjectConfirmation Method="${method}"><saml:SubjectConfirmationData ${data}/></saml:SubjectConfirmation>`;
const conditionsXml = (window = `NotBefore="${iso(-1000)}" NotOnOrAfter="${iso(300_000)}"`, restriction = `<saml:AudienceRestriction><saml:Audience>${SP_ENTITY}</saml:Audience></saml:AudienceRestriction>`) =>
  `<saml:Conditions ${window}>${restriction}</saml:Conditions>`;
const authnXml = (classRef = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport', instant = iso(-5000)) =>
  `<saml:AuthnStatement AuthnInstant="${instant}"><saml:AuthnContext><saml:AuthnContextClassRef>${classRef}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;

function responseXml(s: Shape = {}): string {
  const subject = s.subject ?? `<saml:Subject>${s.nameId ?? nameIdXml('p-0001')}${s.confirmation ?? confirmationXml()}</saml:Subject>`;
  const attributes = s.attributes ?? [['email', ['user@acme.test']]];
  const attributeStatement = attributes.length
    ? `<saml:AttributeStatement>${attributes.map(([name, values]) => `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join('')}</saml:Attribute>`).join('')}</saml:AttributeStatement>`
    : '';
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}" ${s.responseAttributes ?? `Destination="${ACS}" InResponseTo="${REQUEST_ID}"`}>` +
    `<saml:Issuer>${IDP_ENTITY}</saml:Issuer>${s.extensions ?? ''}` +
    `<samlp:Status><samlp:StatusCode Value="${s.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
    `<saml:Assertion ID="_a${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}"><saml:Issuer>${s.assertionIssuer ?? IDP_ENTITY}</saml:Issuer>` +
    `${subject}${s.conditions ?? conditionsXml()}${s.authn ?? authnXml()}${attributeStatement}</saml:Assertion></samlp:Response>`
  );
}

/** Signs `xml` (the element `reference` points to), the signature placed after `issuer`. */
function sign(xml: string, reference: string, issuer: string): string {
  return signSamlXml(key, xml, reference, issuer);
}

const ASSERTION_PATH = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";
const RESPONSE_PATH = "/*[local-name(.)='Response']";

function signed(s: Shape = {}): string {
  const xml = responseXml(s);
  if (s.signed === 'none') return xml;
  if (s.signed === 'response') return sign(xml, RESPONSE_PATH, `${RESPONSE_PATH}/*[local-name(.)='Issuer']`);
  return sign(xml, ASSERTION_PATH, `${ASSERTION_PATH}/*[local-name(.)='Issuer']`);
}

interface Harness {
  deps: Deps;
  clock: MovableClock;
  /** The reasons the module logged for its refusals. */
  reasons: string[];
  /** Items put in the table (the replay cache). */
  puts: { Item: Record<string, unknown>; ConditionExpression?: string }[];
  /** What the next put throws, if anything. */
  putFailure: { error?: Error };
}

function harness(): Harness {
  const clock = new MovableClock();
  const reasons: string[] = [];
  const puts: Harness['puts'] = [];
  const putFailure: Harness['putFailure'] = {};
  const deps = {
    config: { publicUrl: PUBLIC_URL },
    clock,
    table: {
      put: (input: Harness['puts'][number]) => {
        if (putFailure.error) return Promise.reject(putFailure.error);
        puts.push(input);
        return Promise.resolve({});
      },
    },
    observability: { logger: { info: (_message: string, attributes: { reason: string }) => reasons.push(attributes.reason) } },
  } as unknown as Deps;
  return { deps, clock, reasons, puts, putFailure };
}

const tenant = { id: 'ten_unit', slug: SLUG, name: 'Acme', email_domains: ['acme.test'], created_at: '', updated_at: '' } satisfies TenantRecord;
const transaction = { saml_request_id: REQUEST_ID } as SsoTransactionRecord;

function idpRecord(subjectAttribute: string | null = null): IdpConfigRecord & { saml: SamlSettingsRecord } {
  const saml = samlSettingsRecord({ metadata, entityId: IDP_ENTITY, ssoUrl: 'https://idp.test/sso', certBody: key.certBody });
  return { saml, saml_subject_attribute: subjectAttribute } as IdpConfigRecord & { saml: SamlSettingsRecord };
}

const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

function consume(h: Harness, xml: string | undefined, subjectAttribute: string | null = null) {
  return completeSamlLogin(h.deps, tenant, idpRecord(subjectAttribute), transaction, { SAMLResponse: xml === undefined ? undefined : encode(xml), RelayState: 'relay' });
}

/** Refused as an invalid response, having logged `reason` (undefined: refused before samlify, nothing logged). */
async function expectRefused(h: Harness, xml: string, reason: string | RegExp | undefined) {
  const error = await consume(h, xml).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SsoResponseError);
  expect((error as SsoResponseError).reason).toBe('invalid_response');
  if (reason === undefined) expect(h.reasons).toEqual([]);
  else expect(h.reasons).toEqual([expect.stringMatching(reason instanceof RegExp ? reason : `^${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)]);
  expect(h.puts).toEqual([]);
}

describe('a good response', () => {
  it('signs in: the persistent NameID, the email attribute, amr and acr of the class, the AuthnInstant; the assertion id remembered', async () => {
    const h = harness();
    const instant = iso(-60_000);
    const login = await consume(h, signed({ authn: authnXml('urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI', instant) }));
    expect(login).toEqual({
      providerType: 'saml',
      issuer: IDP_ENTITY,
      subject: 'p-0001',
      email: 'user@acme.test',
      emailVerified: true,
      amr: ['sc', 'pin'],
      acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI',
      authTime: Math.floor(Date.parse(instant) / 1000),
    });
    expect(h.puts).toHaveLength(1);
    expect(h.puts[0]).toMatchObject({ ConditionExpression: 'attribute_not_exists(PK)', Item: { tenant_id: tenant.id } });
    expect(h.reasons).toEqual([]);
  });

  it('accepts a response signed as a whole, and one without Destination or InResponseTo on the Response', async () => {
    expect((await consume(harness(), signed({ signed: 'response' }))).subject).toBe('p-0001');
    expect((await consume(harness(), signed({ responseAttributes: '' }))).subject).toBe('p-0001');
  });

  it('without an AuthnStatement: no amr, acr or auth time; an unknown class: acr without amr', async () => {
    expect(await consume(harness(), signed({ authn: '' }))).toMatchObject({ amr: [], acr: undefined, authTime: undefined });
    const instant = iso(-1000);
    expect(await consume(harness(), signed({ authn: authnXml('urn:example:class:unknown', instant) }))).toMatchObject({ amr: [], acr: 'urn:example:class:unknown', authTime: Math.floor(Date.parse(instant) / 1000) });
  });

  it('remembers the assertion until the later of the bearer and the Conditions expiry (at least an hour)', async () => {
    const h = harness();
    const late = Date.now() + 3 * 3_600_000;
    await consume(h, signed({ conditions: conditionsXml(`NotBefore="${iso(-1000)}"`), confirmation: confirmationXml(`NotOnOrAfter="${new Date(late).toISOString()}" Recipient="${ACS}" InResponseTo="${REQUEST_ID}"`) }));
    expect(h.puts[0]!.Item.ttl).toBe(Math.ceil((late + 30_000) / 1000));
  });
});

describe('the subject and the email, from each source the README lists', () => {
  const subjectIdAttribute = 'urn:oasis:names:tc:SAML:attribute:subject-id';

  it('a transient NameID with subject-id: the attribute; an unspecified NameID that is an email gives the email', async () => {
    const login = await consume(harness(), signed({ nameId: nameIdXml('okta.user@acme.test', UNSPECIFIED), attributes: [[subjectIdAttribute, ['sid-9@acme.test']]] }));
    expect(login).toMatchObject({ subject: 'sid-9@acme.test', email: 'okta.user@acme.test' });
  });

  it('a persistent NameID wins over subject-id; an emailAddress NameID over the email attribute; a transient NameID that looks like an email is no email', async () => {
    expect(await consume(harness(), signed({ nameId: nameIdXml('p-7'), attributes: [[subjectIdAttribute, ['sid-7@acme.test']]] }))).toMatchObject({ subject: 'p-7' });
    expect(await consume(harness(), signed({ nameId: nameIdXml('nameid@acme.test', EMAIL_FORMAT), attributes: [['email', ['attribute@acme.test']]] }))).toMatchObject({ email: 'nameid@acme.test' });
    expect(await consume(harness(), signed({ nameId: nameIdXml('t@acme.test', TRANSIENT), attributes: [[subjectIdAttribute, ['sid-8@acme.test']]] }))).toMatchObject({ subject: 'sid-8@acme.test', email: undefined });
  });

  it('an unspecified NameID that is no email is the subject, and gives no email', async () => {
    expect(await consume(harness(), signed({ nameId: nameIdXml('jdoe', UNSPECIFIED), attributes: [['displayName', ['J. Doe']]] }))).toMatchObject({ subject: 'jdoe', email: undefined });
  });

  it('an emailAddress NameID is the subject and the email', async () => {
    expect(await consume(harness(), signed({ nameId: nameIdXml('mail@acme.test', EMAIL_FORMAT), attributes: [] }))).toMatchObject({ subject: 'mail@acme.test', email: 'mail@acme.test' });
  });

  it('a NameID without a Format counts as unspecified', async () => {
    expect(await consume(harness(), signed({ nameId: '<saml:NameID>nf@acme.test</saml:NameID>', attributes: [] }))).toMatchObject({ subject: 'nf@acme.test', email: 'nf@acme.test' });
  });

  it('no NameID at all: pairwise-id is the subject, the mail attribute (any case) the email; empty values and nameless attributes are skipped, the first value kept', async () => {
    const subject = `<saml:Subject>${confirmationXml()}</saml:Subject>`;
    const login = await consume(
      harness(),
      signed({
        subject,
        attributes: [
          ['urn:oasis:names:tc:SAML:attribute:pairwise-id', ['', 'pw-1']],
          ['urn:oasis:names:tc:SAML:attribute:pairwise-id', ['pw-2']],
          ['', ['nameless@acme.test']],
          ['Mail', ['first@acme.test', 'second@acme.test']],
        ],
      }),
    );
    expect(login).toMatchObject({ subject: 'pw-1', email: 'first@acme.test' });
  });

  it('saml_subject_attribute names the subject beside a transient NameID; a transient NameID gives no email', async () => {
    const login = await completeSamlLogin(harness().deps, tenant, idpRecord('uid'), transaction, {
      SAMLResponse: encode(signed({ nameId: nameIdXml('_t1', TRANSIENT), attributes: [['uid', ['ulla']]] })),
      RelayState: 'relay',
    });
    expect(login).toMatchObject({ subject: 'ulla', email: undefined });
  });

  it('refuses a transient NameID alone, or an empty NameID, as no stable subject, naming the setting', async () => {
    for (const nameId of [nameIdXml('_t2', TRANSIENT), nameIdXml('', PERSISTENT)]) {
      const error = await consume(harness(), signed({ nameId, attributes: [['mail', ['t@acme.test']]] })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SsoResponseError);
      expect((error as SsoResponseError).reason).toBe('no_stable_subject');
      expect((error as SsoResponseError).message).toMatch(/set saml_subject_attribute/);
    }
    const named = await consume(harness(), signed({ nameId: nameIdXml('_t3', TRANSIENT), attributes: [] }), 'uid').catch((e: unknown) => e);
    expect((named as SsoResponseError).message).toMatch(/sent no uid attribute/);
  });
});

describe('refused before any signature is checked', () => {
  it('no SAMLResponse, or not only base64 (though the decoder would skip the stray characters)', async () => {
    const good = encode(signed());
    for (const value of [undefined, `${good.slice(0, 40)}%${good.slice(40)}`]) {
      const h = harness();
      const error = await completeSamlLogin(h.deps, tenant, idpRecord(), transaction, { SAMLResponse: value, RelayState: 'relay' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SsoResponseError);
      expect(h.reasons).toEqual([]);
    }
  });

  it('a DOCTYPE, XML that does not parse, no element at all', async () => {
    await expectRefused(harness(), `<!DOCTYPE r [<!ENTITY x "y">]>${signed()}`, undefined);
    await expectRefused(harness(), signed().replace('<saml:Issuer>', '<saml:Issuer>&nbsp;'), undefined);
    await expectRefused(harness(), 'plain text, no XML', undefined);
  });

  it('an IdP status other than Success says what the IdP said, without its code when it sent none', async () => {
    const error = await consume(harness(), responseXml({ status: '' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'idp_refused' });
    const message = responseXml().replace(
      '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/>',
      '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Requester"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:RequestDenied"/></samlp:StatusCode><samlp:StatusMessage> Account locked </samlp:StatusMessage>',
    );
    expect(await consume(harness(), message).catch((e: unknown) => e)).toMatchObject({ reason: 'idp_refused', message: 'The identity provider did not sign you in (Requester, RequestDenied, Account locked)' });
  });

  it('two assertions, or an encrypted one', async () => {
    const xml = responseXml();
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    await expectRefused(harness(), signed().replace('</samlp:Response>', `${assertion.replace(/ID="[^"]+"/, 'ID="_second"')}</samlp:Response>`), undefined);
    await expectRefused(harness(), signed().replace('</samlp:Response>', '<saml:EncryptedAssertion><x:Data xmlns:x="urn:example:enc"/></saml:EncryptedAssertion></samlp:Response>'), undefined);
  });

  it('a root that is not a Response, an assertion that is not its direct child, an assertion without ID', async () => {
    const xml = signed();
    await expectRefused(harness(), xml.replace(/^<samlp:Response/, '<samlp:ArtifactResponse').replace(/<\/samlp:Response>$/, '</samlp:ArtifactResponse>'), undefined);
    // The single assertion moved into the Response's Extensions.
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    await expectRefused(harness(), xml.replace(assertion, '').replace('<samlp:Status>', `<samlp:Extensions>${assertion}</samlp:Extensions><samlp:Status>`), undefined);
    await expectRefused(harness(), responseXml({ signed: 'none' }).replace(/<saml:Assertion ID="[^"]+"/, '<saml:Assertion'), undefined);
  });

  it('a document the parser only warns about (an unquoted attribute value) is refused too', async () => {
    await expectRefused(harness(), signed().replace('Version="2.0" IssueInstant', 'Version=2.0 IssueInstant'), undefined);
  });
});

describe('refused after samlify accepted the signature', () => {
  it('samlify refuses (unsigned, or no Status): its reason is logged', async () => {
    await expectRefused(harness(), signed({ signed: 'none' }), /./);
    await expectRefused(harness(), signed().replace(/<samlp:Status>[\s\S]*?<\/samlp:Status>/, ''), /./);
  });

  it('a signature that covers something else than the assertion or the response', async () => {
    // The response signature references a foreign element in Extensions: it verifies, but covers no assertion.
    const xml = responseXml({ extensions: '<samlp:Extensions><x:Note xmlns:x="urn:example:note" ID="_note">hello</x:Note></samlp:Extensions>' });
    const covered = sign(xml, `${RESPONSE_PATH}/*[local-name(.)='Extensions']/*[local-name(.)='Note']`, `${RESPONSE_PATH}/*[local-name(.)='Issuer']`);
    expect(samlify.SamlLib.verifySignature(covered, { metadata: samlify.IdentityProvider({ metadata }).entityMeta })).toEqual([true, null]);
    await expectRefused(harness(), covered, 'Error: ERR_EMPTY_ASSERTION');
  });

  it('no verified assertion of our own check (if the library ever let one through its own)', async () => {
    const original = samlify.SamlLib.verifySignature.bind(samlify.SamlLib);
    const xml = signed();
    const [, assertion] = original(xml, { metadata: samlify.IdentityProvider({ metadata }).entityMeta });
    expect(assertion).toMatch(/^<saml:Assertion /);
    for (const verdict of [[true, null], [false, assertion]] as const) {
      vi.spyOn(samlify.SamlLib, 'verifySignature')
        .mockImplementationOnce(original)
        .mockImplementationOnce(() => [...verdict]);
      await expectRefused(harness(), xml, 'no verified assertion');
      vi.restoreAllMocks();
    }
  });

  it('a verified assertion that is not the one in the response (if the library ever answered another)', async () => {
    // A well-formed, valid assertion in every other respect, with another ID.
    const other = responseXml()
      .replace(/[\s\S]*(<saml:Assertion[\s\S]*<\/saml:Assertion>)[\s\S]*/, '$1')
      .replace(/^<saml:Assertion ID="[^"]+"/, '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_another"');
    const original = samlify.SamlLib.verifySignature.bind(samlify.SamlLib);
    vi.spyOn(samlify.SamlLib, 'verifySignature')
      .mockImplementationOnce(original)
      .mockImplementationOnce(() => [true, other]);
    await expectRefused(harness(), signed(), 'the signed assertion is not the one in the response');
  });

  it('another Destination or another InResponseTo on the Response', async () => {
    await expectRefused(harness(), signed({ responseAttributes: `Destination="https://elsewhere.test/acs" InResponseTo="${REQUEST_ID}"` }), 'destination');
    await expectRefused(harness(), signed({ responseAttributes: `Destination="${ACS}" InResponseTo="_another-request"` }), 'response InResponseTo');
  });

  it('an assertion issued by another entity than the IdP: samlify refuses it, and our own check would without samlify', async () => {
    await expectRefused(harness(), signed({ assertionIssuer: 'https://other-idp.test/entity' }), 'Error: ERR_UNMATCH_ISSUER');
    const serviceProvider = Object.getPrototypeOf(samlify.ServiceProvider({ entityID: SP_ENTITY })) as { parseLoginResponse: () => Promise<unknown> };
    vi.spyOn(serviceProvider, 'parseLoginResponse').mockResolvedValue({});
    await expectRefused(harness(), signed({ assertionIssuer: 'https://other-idp.test/entity' }), 'issuer');
  });

  it('no Subject', async () => {
    await expectRefused(harness(), signed({ subject: '' }), 'no Subject');
  });

  it('no bearer confirmation for this request, recipient and time', async () => {
    const data = (extra: string) => `Recipient="${ACS}" InResponseTo="${REQUEST_ID}" ${extra}`;
    const shapes = [
      confirmationXml(undefined, 'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key'),
      `<saml:SubjectConfirmation Method="${BEARER}"/>`,
      confirmationXml(`NotOnOrAfter="${iso(300_000)}" Recipient="${ACS}" InResponseTo="_another-request"`),
      confirmationXml(data(`NotBefore="${iso(-1000)}" NotOnOrAfter="${iso(300_000)}"`)),
      confirmationXml(data('')),
      confirmationXml(data(`NotOnOrAfter="${iso(-60_000)}"`)),
    ];
    for (const confirmation of shapes) await expectRefused(harness(), signed({ confirmation }), 'no bearer confirmation for this request, recipient and time');
  });

  it('no Conditions, or Conditions outside their window on our clock though not on the real one', async () => {
    await expectRefused(harness(), signed({ conditions: '' }), 'conditions time window');
    const ahead = harness();
    ahead.clock.advance(10 * 60);
    // The bearer confirmation stays valid on our clock; only the Conditions expire.
    await expectRefused(ahead, signed({ confirmation: confirmationXml(`NotOnOrAfter="${iso(3_600_000)}" Recipient="${ACS}" InResponseTo="${REQUEST_ID}"`) }), 'conditions time window');
    const behind = harness();
    behind.clock.advance(-10 * 60);
    await expectRefused(behind, signed(), 'conditions time window');
  });

  it('no AudienceRestriction, or one that does not name us', async () => {
    await expectRefused(harness(), signed({ conditions: conditionsXml(undefined, '') }), 'audience');
    const two = `<saml:AudienceRestriction><saml:Audience>${SP_ENTITY}</saml:Audience></saml:AudienceRestriction><saml:AudienceRestriction><saml:Audience>https://another-sp.test</saml:Audience></saml:AudienceRestriction>`;
    await expectRefused(harness(), signed({ conditions: conditionsXml(undefined, two) }), 'audience');
  });

  it('an assertion id already used (the replay cache), and a table failure that is no lost race', async () => {
    const replayed = harness();
    replayed.putFailure.error = Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    await expectRefused(replayed, signed(), 'assertion replayed');
    const broken = harness();
    broken.putFailure.error = Object.assign(new Error('table down'), { name: 'InternalServerError' });
    await expect(consume(broken, signed())).rejects.toThrow('table down');
  });
});
