/**
 * SAML 2.0 SP-initiated login, first half: an AuthnRequest over the HTTP-Redirect binding
 * (signed, SigAlg + Signature, when the IdP's metadata wants it), its ID remembered in the
 * login transaction (InResponseTo must name it), the transaction's handle as RelayState.
 */
import type { Deps } from '../../deps';
import { envelopeOf } from '../../crypto/envelope';
import type { IdpConfigRecord, SamlSettingsRecord, TenantRecord } from '../../store/records';
import { createSsoTransaction, newSsoState, type SsoClient } from './login-transactions';
import { identityProviderFor, serviceProviderFor, spSigningKeyContext } from './saml-entities';

export async function startSamlLogin(deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { saml: SamlSettingsRecord }, client: SsoClient): Promise<string> {
  const state = newSsoState();
  const saml = idp.saml;
  const signing = {
    certificate: saml.sp_certificate,
    signRequests: saml.want_authn_requests_signed,
    ...(saml.want_authn_requests_signed ? { privateKey: await (await envelopeOf(deps)).decrypt(saml.sp_private_key_encrypted, spSigningKeyContext(tenant.id)) } : {}),
  };
  const request = serviceProviderFor(deps.config, tenant.slug, signing).createLoginRequest(identityProviderFor(saml), 'redirect', { relayState: state });
  await createSsoTransaction(deps, { tenantId: tenant.id, providerType: 'saml', client, samlRequestId: request.id, state });
  return request.context;
}

export const samlStartProtocol = { startSaml: startSamlLogin } as const;
