/**
 * The two ends of an SP-initiated SSO login, whatever the protocol: /start checks the tenant,
 * its active IdP and the redirect URI against the allow-list, then hands over to OIDC or SAML;
 * /callback consumes the login transaction named by `state` (OIDC) or `RelayState` (SAML),
 * lets the protocol verify the IdP's answer, resolves or provisions the user, and redirects
 * to the client's redirect URI with a single-use code.
 */
import { epochSeconds } from '../../clock';
import type { Deps } from '../../deps';
import { NotFoundError, ValidationError } from '../../errors';
import { toTesseraError } from '../../http/problem';
import { recordAuditEvent } from '../../audit/audit-log';
import { metricNames } from '../../observability';
import { getTenant, getTenantBySlug } from '../../store/identity-items';
import type { IdpConfigRecord, OidcSettingsRecord, SamlSettingsRecord, SsoTransactionRecord, TenantRecord } from '../../store/records';
import type { Principal } from '../principal';
import { linkFederatedIdentity } from './federated-identities';
import { resolveFederatedUser, idpDidMfa, type FederatedLogin } from './federated-users';
import { getIdpConfig } from './idp-config';
import { consumeSsoTransaction, SsoResponseError, type SsoClient } from './login-transactions';
import type { SsoCallbackParams } from './sso-login-schemas';
import { mintSsoCode } from './sso-codes';

/**
 * How far ahead of our clock an IdP may put the sign-in it asserts (`auth_time`, `AuthnInstant`).
 * A later time would pass for a fresh sign-in for longer than it is (the 10-minute step-up
 * window, "tokens from before an MFA enable stay refused"), so it is refused.
 */
const IDP_CLOCK_SKEW_SECONDS = 60;

export interface SsoProtocols {
  startOidc?: (deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { oidc: OidcSettingsRecord }, client: SsoClient) => Promise<string>;
  completeOidc?: (deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { oidc: OidcSettingsRecord }, transaction: SsoTransactionRecord, state: string, params: SsoCallbackParams) => Promise<FederatedLogin>;
  startSaml?: (deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { saml: SamlSettingsRecord }, client: SsoClient) => Promise<string>;
  completeSaml?: (deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { saml: SamlSettingsRecord }, transaction: SsoTransactionRecord, params: SsoCallbackParams) => Promise<FederatedLogin>;
}

async function activeIdp(deps: Deps, slug: string): Promise<{ tenant: TenantRecord; idp: IdpConfigRecord }> {
  const tenant = await getTenantBySlug(deps, slug);
  const idp = tenant ? await getIdpConfig(deps, tenant.id) : undefined;
  if (!tenant || !idp?.active) throw new NotFoundError('single sign-on configuration');
  return { tenant, idp };
}

const hasOidc = (idp: IdpConfigRecord): idp is IdpConfigRecord & { oidc: OidcSettingsRecord } => idp.oidc !== null;
const hasSaml = (idp: IdpConfigRecord): idp is IdpConfigRecord & { saml: SamlSettingsRecord } => idp.saml !== null;

export async function startSsoLogin(deps: Deps, protocols: SsoProtocols, slug: string, client: SsoClient): Promise<string> {
  const { tenant, idp } = await activeIdp(deps, slug);
  // Exact match only: an open redirector would hand the code to anyone.
  if (!idp.allowed_redirect_uris.includes(client.redirectUri)) throw new ValidationError([{ path: 'redirect_uri', message: 'is not on the tenant\'s list of allowed redirect URIs' }]);
  if (idp.provider_type === 'oidc' && hasOidc(idp) && protocols.startOidc) return protocols.startOidc(deps, tenant, idp, client);
  if (idp.provider_type === 'saml' && hasSaml(idp) && protocols.startSaml) return protocols.startSaml(deps, tenant, idp, client);
  throw new NotFoundError('single sign-on configuration');
}

/**
 * `POST /v1/me/federated-identities/link`: the same start, for the signed-in caller's tenant,
 * with a transaction bound to the caller's user id. Its callback links the identity the IdP
 * asserts to that user instead of signing anyone in.
 */
export async function startFederatedIdentityLink(deps: Deps, protocols: SsoProtocols, principal: Principal, client: Omit<SsoClient, 'linkUserId'>): Promise<{ authorization_url: string }> {
  const tenant = await getTenant(deps, principal.tenantId);
  if (!tenant) throw new NotFoundError('single sign-on configuration');
  return { authorization_url: await startSsoLogin(deps, protocols, tenant.slug, { ...client, linkUserId: principal.userId }) };
}

/**
 * The callback. Until the login transaction is found there is nowhere safe to send the browser
 * (the redirect URI is in the transaction), so those refusals are problem+json; from then on
 * every outcome goes back to the client application, as OAuth 2.0 does (RFC 6749 4.1.2.1):
 * `?code=` after a login, `?error=&error_description=` when it failed, with its `state`.
 */
export async function completeSsoLogin(deps: Deps, protocols: SsoProtocols, slug: string, params: SsoCallbackParams, sourceIp: string): Promise<string> {
  const tenant = await getTenantBySlug(deps, slug);
  if (!tenant) throw new NotFoundError('single sign-on configuration');
  const state = params.SAMLResponse !== undefined ? params.RelayState : params.state;
  const transaction = await consumeSsoTransaction(deps, tenant.id, state);
  try {
    return clientRedirect(transaction, await signIn(deps, protocols, tenant, transaction, state!, params, sourceIp));
  } catch (error) {
    const failure = toTesseraError(error);
    if (failure.status >= 500) deps.observability.logger.error('SSO callback failed', { tenant_id: tenant.id, error });
    return clientRedirect(transaction, {
      error: failure.status >= 500 ? (failure.code === 'unavailable' ? 'temporarily_unavailable' : 'server_error') : 'access_denied',
      error_description: failure.status >= 500 ? 'Tessera could not complete the sign-in; try again' : failure.message,
    });
  }
}

/** What goes back to the client: `{code}` after a login, `{linked, federated_identity_id}` after a link. */
async function signIn(deps: Deps, protocols: SsoProtocols, tenant: TenantRecord, transaction: SsoTransactionRecord, state: string, params: SsoCallbackParams, sourceIp: string): Promise<Record<string, string>> {
  let login: FederatedLogin;
  try {
    const idp = await getIdpConfig(deps, tenant.id);
    // The protocol of the answer must be the one the login started with, and still the active one.
    if (!idp?.active) throw new SsoResponseError('Single sign-on is switched off for this tenant', 'sso_inactive');
    if (transaction.provider_type !== idp.provider_type) throw new SsoResponseError('The tenant changed its single sign-on protocol during this login; start the login again', 'protocol_changed');
    if (transaction.provider_type === 'oidc' && params.SAMLResponse === undefined && hasOidc(idp) && protocols.completeOidc) {
      login = await protocols.completeOidc(deps, tenant, idp, transaction, state, params);
    } else if (transaction.provider_type === 'saml' && params.SAMLResponse !== undefined && hasSaml(idp) && protocols.completeSaml) {
      login = await protocols.completeSaml(deps, tenant, idp, transaction, params);
    } else {
      throw new SsoResponseError();
    }
    if (login.authTime !== undefined && login.authTime > epochSeconds(deps.clock) + IDP_CLOCK_SKEW_SECONDS) {
      throw new SsoResponseError('The identity provider says the sign-in happened in the future; check its clock and start the login again', 'auth_time_in_future');
    }
    if (transaction.link_user_id) {
      const linked = await linkFederatedIdentity(deps, idp, login, transaction.link_user_id, sourceIp);
      return { linked: 'true', federated_identity_id: linked.id };
    }
    const { user, provisioned } = await resolveFederatedUser(deps, idp, login, sourceIp);
    const authTime = login.authTime ?? epochSeconds(deps.clock);
    const amr = login.amr.length ? login.amr : ['ext'];
    const code = await mintSsoCode(deps, {
      user, providerType: login.providerType, issuer: login.issuer, amr, acr: login.acr, authTime, mfaAt: idpDidMfa(amr) ? authTime : undefined, provisioned,
      codeChallenge: transaction.client_code_challenge ?? undefined,
    });
    return { code };
  } catch (error) {
    if (error instanceof SsoResponseError) {
      // Who it was is unknown (the answer did not verify); the attempt is still a login failure.
      // (Refusals of a verified identity are audited where they are decided: federated-users.ts.)
      deps.observability.count(metricNames.loginFailure, { method: 'sso' });
      await recordAuditEvent(deps, {
        log: 'identity', tenantId: tenant.id, actorId: null, action: 'login_failed', targetType: 'user', targetId: 'unknown',
        payload: { method: 'sso', provider_type: transaction.provider_type, reason: error.reason, detail: error.message }, sourceIp,
      });
    }
    throw error;
  }
}

function clientRedirect(transaction: SsoTransactionRecord, answer: Record<string, string>): string {
  const target = new URL(transaction.redirect_uri);
  for (const [name, value] of Object.entries(answer)) target.searchParams.set(name, value);
  if (transaction.client_state) target.searchParams.set('state', transaction.client_state);
  return target.href;
}
