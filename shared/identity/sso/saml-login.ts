/**
 * SAML 2.0 SP-initiated login, first half: an AuthnRequest over the HTTP-Redirect binding, its
 * ID remembered in the login transaction (InResponseTo must name it), the transaction's handle
 * as RelayState.
 */
import type { Deps } from '../../deps';
import type { IdpConfigRecord, SamlSettingsRecord, TenantRecord } from '../../store/records';
import { createSsoTransaction, newSsoState } from './login-transactions';
import { identityProviderFor, serviceProviderFor } from './saml-entities';

export async function startSamlLogin(deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { saml: SamlSettingsRecord }, redirectUri: string): Promise<string> {
  const state = newSsoState();
  const request = serviceProviderFor(deps.config, tenant.slug).createLoginRequest(identityProviderFor(idp.saml), 'redirect', { relayState: state });
  await createSsoTransaction(deps, { tenantId: tenant.id, providerType: 'saml', redirectUri, samlRequestId: request.id, state });
  return request.context;
}

export const samlStartProtocol = { startSaml: startSamlLogin } as const;
