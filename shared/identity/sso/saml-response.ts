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
import type { SsoCallbackParams } from './schemas';
import { serviceProviderEndpoints } from './sp-endpoints';

samlify.setSchemaValidator(schemaValidator);

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_ATTRIBUTES = new Set(['email', 'mail', 'emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress']);

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
  const doc = new DOMParser({ errorHandler: (level: string) => { if (level !== 'warning') broken = true; } }).parseFromString(xml, 'text/xml');
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
    refuse(error instanceof Error ? error.message : String(error));
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
  const nameIdElement = childOf(subject, ASSERTION_NS, 'NameID');
  const nameId = nameIdElement?.textContent?.trim();
  if (!nameId) return refuse('no NameID');
  // A transient NameID changes at every login: it cannot be the stable subject of a link.
  if (nameIdElement!.getAttribute('Format') === 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient') refuse('transient NameID');
  const now = deps.clock.now().getTime();
  const bearer = childrenOf(subject!, ASSERTION_NS, 'SubjectConfirmation')
    .filter((c) => c.getAttribute('Method') === BEARER)
    .map((c) => childOf(c, ASSERTION_NS, 'SubjectConfirmationData'))
    .find((d) => d !== undefined && d.getAttribute('Recipient') === endpoints.acs_url && d.getAttribute('InResponseTo') === transaction.saml_request_id && !d.getAttribute('NotBefore') && withinWindow(now, null, d.getAttribute('NotOnOrAfter')));
  if (!bearer || !bearer.getAttribute('NotOnOrAfter')) refuse('no bearer confirmation for this request, recipient and time');

  const conditions = childOf(assertion, ASSERTION_NS, 'Conditions');
  if (!conditions || !withinWindow(now, conditions.getAttribute('NotBefore'), conditions.getAttribute('NotOnOrAfter'))) refuse('conditions time window');
  const audiences = childrenOf(conditions!, ASSERTION_NS, 'AudienceRestriction');
  if (audiences.length === 0 || !audiences.every((r) => childrenOf(r, ASSERTION_NS, 'Audience').some((a) => a.textContent?.trim() === endpoints.entity_id))) refuse('audience');

  // Replay cache: an assertion id is accepted once, remembered until it could no longer be valid.
  const expiresAt = Math.max(Date.parse(conditions!.getAttribute('NotOnOrAfter') ?? '') || 0, Date.parse(bearer!.getAttribute('NotOnOrAfter')!) || 0) + SAML_CLOCK_SKEW_SECONDS * 1000;
  try {
    await deps.table.put({
      Item: { ...keys.samlAssertionUse(tenant.id, sha256Hex(`${idp.saml.entity_id}\u0000${assertionId}`)), tenant_id: tenant.id, used_at: new Date(now).toISOString(), ttl: Math.ceil(Math.max(expiresAt, now + 3_600_000) / 1000) },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
  } catch (error) {
    if (isConditionFailure(error)) refuse('assertion replayed');
    throw error;
  }

  const authn = childOf(assertion, ASSERTION_NS, 'AuthnStatement');
  const classRef = childOf(childOf(authn, ASSERTION_NS, 'AuthnContext'), ASSERTION_NS, 'AuthnContextClassRef')?.textContent?.trim();
  const authnInstant = Date.parse(authn?.getAttribute('AuthnInstant') ?? '');
  return {
    providerType: 'saml',
    issuer: idp.saml.entity_id,
    subject: nameId,
    email: emailOf(assertion, nameId),
    emailVerified: true,
    amr: classRef ? (AMR_OF_CLASS[classRef] ?? []) : [],
    acr: classRef,
    authTime: Number.isFinite(authnInstant) ? Math.floor(authnInstant / 1000) : undefined,
  };
}

function emailOf(assertion: Element, nameId: string): string | undefined {
  for (const statement of childrenOf(assertion, ASSERTION_NS, 'AttributeStatement')) {
    for (const attribute of childrenOf(statement, ASSERTION_NS, 'Attribute')) {
      if (!EMAIL_ATTRIBUTES.has((attribute.getAttribute('Name') ?? '').toLowerCase())) continue;
      const value = childOf(attribute, ASSERTION_NS, 'AttributeValue')?.textContent?.trim();
      if (value) return value;
    }
  }
  return /^[^@\s]+@[^@\s]+$/.test(nameId) ? nameId : undefined;
}

export const samlCompleteProtocol = { completeSaml: completeSamlLogin } as const;
