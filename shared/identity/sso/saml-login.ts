/**
 * SAML 2.0 SP-initiated login, first half: an AuthnRequest over the HTTP-Redirect binding
 * (saml-bindings §3.4: deflated, base64, in the query; signed with SigAlg + Signature over the
 * query when the IdP's metadata wants it), its ID remembered in the login transaction
 * (InResponseTo must name it), the transaction's handle as RelayState.
 *
 * Written here rather than by samlify: the request is a fixed template over values Tessera
 * already keeps (the IdP's SSO URL and whether it wants requests signed, read from its metadata
 * by saml-idp-metadata.ts), and samlify's entry point would bring its whole XML signature and
 * encryption stack (~500 KiB) into the functions that start a login.
 */
import { randomUUID, sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { Deps } from '../../deps';
import { encryptionContext } from '../../crypto/encryption-contexts';
import { envelopeOf } from '../../crypto/envelope';
import type { IdpConfigRecord, SamlSettingsRecord, TenantRecord } from '../../store/records';
import { createSsoTransaction, newSsoState, type SsoClient } from './login-transactions';
import { HTTP_POST_BINDING, SP_NAMEID_FORMATS, xmlEscape } from './saml-sp-metadata';
import { serviceProviderEndpoints } from './sp-endpoints';

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
/** The one request signature algorithm Tessera uses (xmldsig-more). */
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

export interface AuthnRequest {
  /** The request's ID, which the response's InResponseTo must name. */
  id: string;
  /** The IdP's SSO URL with the request in its query. */
  url: string;
}

export interface AuthnRequestInput {
  /** Tessera's entity id (the Issuer) and ACS URL for the tenant. */
  entityId: string;
  acsUrl: string;
  /** The IdP's HTTP-Redirect SingleSignOnService. */
  ssoUrl: string;
  relayState: string;
  issueInstant: Date;
  /** PEM; the request is signed when given. */
  signingKey?: string;
}

export function authnRequestRedirect(input: AuthnRequestInput): AuthnRequest {
  const id = `_${randomUUID()}`;
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="${PROTOCOL_NS}" xmlns:saml="${ASSERTION_NS}" ID="${id}" Version="2.0" IssueInstant="${input.issueInstant.toISOString()}"` +
    ` Destination="${xmlEscape(input.ssoUrl)}" ProtocolBinding="${HTTP_POST_BINDING}" AssertionConsumerServiceURL="${xmlEscape(input.acsUrl)}">` +
    `<saml:Issuer>${xmlEscape(input.entityId)}</saml:Issuer><samlp:NameIDPolicy Format="${SP_NAMEID_FORMATS[0]}" AllowCreate="false"/></samlp:AuthnRequest>`;
  // §3.4.4.1: the signature covers SAMLRequest, RelayState and SigAlg, URL-encoded, in this order.
  let query = `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'))}&RelayState=${encodeURIComponent(input.relayState)}`;
  if (input.signingKey) {
    query += `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
    query += `&Signature=${encodeURIComponent(sign('sha256', Buffer.from(query, 'utf8'), input.signingKey).toString('base64'))}`;
  }
  return { id, url: `${input.ssoUrl}${input.ssoUrl.includes('?') ? '&' : '?'}${query}` };
}

export async function startSamlLogin(deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { saml: SamlSettingsRecord }, client: SsoClient): Promise<string> {
  const state = newSsoState();
  const saml = idp.saml;
  const endpoints = serviceProviderEndpoints(deps.config, tenant.slug);
  const signingKey = saml.want_authn_requests_signed ? await (await envelopeOf(deps)).decrypt(saml.sp_private_key_encrypted, encryptionContext('saml_sp_signing_key', { tenant_id: tenant.id })) : undefined;
  const request = authnRequestRedirect({ entityId: endpoints.entity_id, acsUrl: endpoints.acs_url, ssoUrl: saml.sso_url, relayState: state, issueInstant: deps.clock.now(), ...(signingKey ? { signingKey } : {}) });
  await createSsoTransaction(deps, { tenantId: tenant.id, providerType: 'saml', client, samlRequestId: request.id, state });
  return request.url;
}

export const samlStartProtocol = { startSaml: startSamlLogin } as const;
