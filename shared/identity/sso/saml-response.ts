/**
 * SAML 2.0 assertion consumer (HTTP-POST binding), second half of an SP-initiated login.
 *
 * samlify (with xmllint compiled to WebAssembly as its offline schema validator) checks the schema, the status, a signature
 * over the response or the assertion against the IdP's metadata certificate, the issuer and
 * the Conditions time window. It does not check what only the SP can know, so this module adds,
 * on the assertion whose signature verified:
 * - exactly one assertion in the whole document (no encrypted, nested or sibling ones): the
 *   classic signature-wrapping shapes put a second, unsigned assertion beside or around the
 *   signed one;
 * - the audience (our entity id), Destination and Recipient (our ACS URL);
 * - InResponseTo naming the AuthnRequest of this login transaction (consumed once);
 * - NotBefore / NotOnOrAfter with a small skew, on our clock;
 * - a replay cache of assertion ids in DynamoDB, kept until NotOnOrAfter + skew.
 */
import { DOMParser } from '@xmldom/xmldom';
import samlify from 'samlify';
import * as schemaValidator from '@authenio/samlify-xmllint-wasm';
import type { Deps } from '../../deps';
import { sha256Hex } from '../../crypto/opaque-tokens';
import { isConditionFailure } from '../../store/client';
import { keys } from '../../store/keys';
import type { IdpConfigRecord, SamlSettingsRecord, SsoTransactionRecord, TenantRecord } from '../../store/records';
import type { FederatedLogin } from './federated-users';
import { SsoResponseError } from './login-transactions';
import { identityProviderFor, SAML_CLOCK_SKEW_SECONDS, serviceProviderFor } from './saml-entities';
import type { SsoCallbackParams } from './sso-login-schemas';
import { serviceProviderEndpoints } from './sp-endpoints';

samlify.setSchemaValidator(schemaValidator);

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const NAMEID_TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** SAML V2.0 Subject Identifier Attributes Profile: stable, scoped identifiers an IdP may send beside any NameID. */
const SUBJECT_ID_ATTRIBUTES = ['urn:oasis:names:tc:SAML:attribute:subject-id', 'urn:oasis:names:tc:SAML:attribute:pairwise-id'];
/** Where IdPs put the email: the LDAP names, their OID (the `uri` name format) and the Entra/ADFS claim. Compared case-insensitively. */
const EMAIL_ATTRIBUTES = ['email', 'mail', 'emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];

/** AuthnContextClassRef → RFC 8176 amr values (what we can say of it; unknown classes give none). */
const AMR_OF_CLASS: Record<string, string[]> = {
  'urn:oasis:names:tc:SAML:2.0:ac:classes:Password': ['pwd'],
  'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport': ['pwd'],
  'urn:oasis:names:tc:SAML:2.0:ac:classes:X509': ['sc'],
  'urn:oasis:names:tc:SAML:2.0:ac:classes:Smartcard': ['sc'],
  'urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI': ['sc', 'pin'],
  'urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken': ['otp'],
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract': ['mfa'],
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorUnregistered': ['mfa'],
  'http://schemas.microsoft.com/claims/multipleauthn': ['mfa'],
  'https://refeds.org/profile/mfa': ['mfa'],
};

function parseXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml)) throw new SsoResponseError();
  let broken = false;
  // Any complaint of the parser, a warning (an unquoted attribute...) too, refuses the document.
  const doc = new DOMParser({ errorHandler: () => { broken = true; } }).parseFromString(xml, 'text/xml');
  if (broken || !doc.documentElement) throw new SsoResponseError();
  return doc;
}

const childrenOf = (parent: Element, ns: string, localName: string): Element[] =>
  Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === localName);
// (Document and Element are the DOM lib's types, which @xmldom/xmldom's declarations use.)

const childOf = (parent: Element | undefined, ns: string, localName: string): Element | undefined => (parent ? childrenOf(parent, ns, localName)[0] : undefined);

/** The document must be one Response holding exactly one (plain) assertion, as its direct child. */
function soleAssertionId(doc: Document): string {
  const root = doc.documentElement;
  if (root.namespaceURI !== PROTOCOL_NS || root.localName !== 'Response') throw new SsoResponseError();
  if (doc.getElementsByTagNameNS('*', 'Assertion').length !== 1 || doc.getElementsByTagNameNS('*', 'EncryptedAssertion').length !== 0) throw new SsoResponseError();
  const [assertion] = childrenOf(root, ASSERTION_NS, 'Assertion');
  const id = assertion?.getAttribute('ID');
  if (!id) throw new SsoResponseError();
  return id;
}

function withinWindow(nowMs: number, notBefore: string | null, notOnOrAfter: string | null): boolean {
  const skew = SAML_CLOCK_SKEW_SECONDS * 1000;
  if (notBefore && !(Date.parse(notBefore) - skew <= nowMs)) return false;
  if (notOnOrAfter && !(nowMs < Date.parse(notOnOrAfter) + skew)) return false;
  return true;
}

export async function completeSamlLogin(
  deps: Deps,
  tenant: TenantRecord,
  idp: IdpConfigRecord & { saml: SamlSettingsRecord },
  transaction: SsoTransactionRecord,
  params: SsoCallbackParams,
): Promise<FederatedLogin> {
  const encoded = params.SAMLResponse ?? '';
  if (!/^[A-Za-z0-9+/=\s]+$/.test(encoded)) throw new SsoResponseError();
  const xml = Buffer.from(encoded, 'base64').toString('utf8');
  // An IdP that did not sign the user in says so in the status (and sends no assertion): tell
  // the user what it said rather than that the answer was malformed. Nothing is trusted here.
  const status = statusOf(parseXml(xml));
  if (status && status.code !== STATUS_SUCCESS) {
    throw new SsoResponseError(`The identity provider did not sign you in (${[status.code.split(':').pop(), status.subCode?.split(':').pop(), status.message].filter(Boolean).join(', ')})`, 'idp_refused');
  }
  const assertionId = soleAssertionId(parseXml(xml));
  const endpoints = serviceProviderEndpoints(deps.config, tenant.slug);
  const idpEntity = identityProviderFor(idp.saml);

  const refuse = (reason: string): never => {
    deps.observability.logger.info('SAML response refused', { tenant_id: tenant.id, reason });
    throw new SsoResponseError();
  };

  try {
    await serviceProviderFor(deps.config, tenant.slug).parseLoginResponse(idpEntity, 'post', { body: { SAMLResponse: encoded, RelayState: params.RelayState } });
  } catch (error) {
    refuse(String(error));
  }
  // The assertion as covered by the signature that verified (the response's or its own).
  const [verified, signedXml] = samlify.SamlLib.verifySignature(xml, { metadata: idpEntity.entityMeta });
  if (!verified || !signedXml) return refuse('no verified assertion');
  const assertion = parseXml(signedXml).documentElement;
  if (assertion.namespaceURI !== ASSERTION_NS || assertion.localName !== 'Assertion' || assertion.getAttribute('ID') !== assertionId) return refuse('the signed assertion is not the one in the response');

  const response = parseXml(xml).documentElement;
  const destination = response.getAttribute('Destination');
  if (destination && destination !== endpoints.acs_url) refuse('destination');
  const responseInResponseTo = response.getAttribute('InResponseTo');
  if (responseInResponseTo && responseInResponseTo !== transaction.saml_request_id) refuse('response InResponseTo');

  if (childOf(assertion, ASSERTION_NS, 'Issuer')?.textContent?.trim() !== idp.saml.entity_id) refuse('issuer');
  const subject = childOf(assertion, ASSERTION_NS, 'Subject');
  if (!subject) return refuse('no Subject');
  const now = deps.clock.now().getTime();
  const bearer = childrenOf(subject, ASSERTION_NS, 'SubjectConfirmation')
    .filter((c) => c.getAttribute('Method') === BEARER)
    .map((c) => childOf(c, ASSERTION_NS, 'SubjectConfirmationData'))
    .find((d) => d !== undefined && d.getAttribute('Recipient') === endpoints.acs_url && d.getAttribute('InResponseTo') === transaction.saml_request_id && !d.getAttribute('NotBefore') && withinWindow(now, null, d.getAttribute('NotOnOrAfter')));
  if (!bearer || !bearer.getAttribute('NotOnOrAfter')) refuse('no bearer confirmation for this request, recipient and time');

  const conditions = childOf(assertion, ASSERTION_NS, 'Conditions');
  if (!conditions || !withinWindow(now, conditions.getAttribute('NotBefore'), conditions.getAttribute('NotOnOrAfter'))) refuse('conditions time window');
  const audiences = childrenOf(conditions!, ASSERTION_NS, 'AudienceRestriction');
  if (audiences.length === 0 || !audiences.every((r) => childrenOf(r, ASSERTION_NS, 'Audience').some((a) => a.textContent?.trim() === endpoints.entity_id))) refuse('audience');

  // Replay cache: an assertion id is accepted once, remembered until it could no longer be valid.
  const expiresAt = Math.max(Date.parse(conditions!.getAttribute('NotOnOrAfter') || '') || 0, Date.parse(bearer!.getAttribute('NotOnOrAfter')!)) + SAML_CLOCK_SKEW_SECONDS * 1000;
  try {
    await deps.table.put({
      Item: { ...keys.samlAssertionUse(tenant.id, sha256Hex(`${idp.saml.entity_id}\u0000${assertionId}`)), tenant_id: tenant.id, used_at: new Date(now).toISOString(), ttl: Math.ceil(Math.max(expiresAt, now + 3_600_000) / 1000) },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
  } catch (error) {
    if (isConditionFailure(error)) refuse('assertion replayed');
    throw error;
  }

  const nameIdElement = childOf(subject, ASSERTION_NS, 'NameID');
  const nameId = { value: nameIdElement?.textContent?.trim() || undefined, format: nameIdElement?.getAttribute('Format') || undefined };
  const attributes = attributesOf(assertion);
  const stableSubject = subjectOf(nameId, attributes, idp.saml_subject_attribute ?? null);

  const authn = childOf(assertion, ASSERTION_NS, 'AuthnStatement');
  const classRef = childOf(childOf(authn, ASSERTION_NS, 'AuthnContext'), ASSERTION_NS, 'AuthnContextClassRef')?.textContent?.trim();
  const authnInstant = Date.parse(authn?.getAttribute('AuthnInstant') ?? '');
  return {
    providerType: 'saml',
    issuer: idp.saml.entity_id,
    subject: stableSubject,
    email: emailOf(nameId, attributes),
    emailVerified: true,
    amr: classRef ? (AMR_OF_CLASS[classRef] ?? []) : [],
    acr: classRef,
    authTime: Number.isFinite(authnInstant) ? Math.floor(authnInstant / 1000) : undefined,
  };
}

function statusOf(doc: Document): { code: string; subCode: string | undefined; message: string | undefined } | undefined {
  const status = childOf(doc.documentElement, PROTOCOL_NS, 'Status');
  const code = childOf(status, PROTOCOL_NS, 'StatusCode');
  if (!code) return undefined;
  const message = childOf(status, PROTOCOL_NS, 'StatusMessage')?.textContent?.trim().slice(0, 200);
  return { code: code.getAttribute('Value') || '', subCode: childOf(code, PROTOCOL_NS, 'StatusCode')?.getAttribute('Value') ?? undefined, message: message || undefined };
}

/** The signed assertion's attributes: name → its first non-empty value. */
function attributesOf(assertion: Element): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const statement of childrenOf(assertion, ASSERTION_NS, 'AttributeStatement')) {
    for (const attribute of childrenOf(statement, ASSERTION_NS, 'Attribute')) {
      const name = attribute.getAttribute('Name');
      const value = childrenOf(attribute, ASSERTION_NS, 'AttributeValue').map((v) => v.textContent?.trim()).find(Boolean);
      if (name && value && !attributes.has(name)) attributes.set(name, value);
    }
  }
  return attributes;
}

/**
 * The stable identifier of the person at this IdP, in the order of the contract: a persistent
 * NameID; the subject-id / pairwise-id attributes; the attribute the tenant names in
 * `saml_subject_attribute` (what Shibboleth and SimpleSAMLphp deployments send beside a
 * transient NameID); an email (or other non-transient) NameID. A transient NameID changes at
 * every login, so alone it can never be linked again: refused, saying which setting fixes it.
 */
function subjectOf(nameId: { value: string | undefined; format: string | undefined }, attributes: Map<string, string>, subjectAttribute: string | null): string {
  if (nameId.value && nameId.format === NAMEID_PERSISTENT) return nameId.value;
  for (const name of SUBJECT_ID_ATTRIBUTES) {
    const value = attributes.get(name);
    if (value) return value;
  }
  const named = subjectAttribute ? attributes.get(subjectAttribute) : undefined;
  if (named) return named;
  if (nameId.value && nameId.format !== NAMEID_TRANSIENT) return nameId.value;
  throw new SsoResponseError(
    subjectAttribute
      ? `The identity provider sent no ${subjectAttribute} attribute, which this tenant's saml_subject_attribute names as the user's identifier, and only a transient NameID: release ${subjectAttribute} to Tessera at the identity provider, or change saml_subject_attribute`
      : 'The identity provider identified the user only by a transient NameID, which changes at every login: set saml_subject_attribute in the tenant\'s IdP configuration to an attribute that identifies the user (e.g. uid), or have the identity provider send a persistent NameID',
    'no_stable_subject',
  );
}

function emailOf(nameId: { value: string | undefined; format: string | undefined }, attributes: Map<string, string>): string | undefined {
  if (nameId.value && nameId.format === NAMEID_EMAIL) return nameId.value;
  for (const [name, value] of attributes) if (EMAIL_ATTRIBUTES.includes(name.toLowerCase())) return value;
  // An unspecified NameID that is an email (Okta's and Google's defaults) counts too.
  return nameId.value && nameId.format !== NAMEID_TRANSIENT && /^[^@\s]+@[^@\s]+$/.test(nameId.value) ? nameId.value : undefined;
}

export const samlCompleteProtocol = { completeSaml: completeSamlLogin } as const;
