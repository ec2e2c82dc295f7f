/**
 * OIDC authorization code flow with PKCE (S256) through openid-client v6. /start stores a
 * login transaction (state, nonce, PKCE verifier) and sends the browser to the IdP; /callback
 * hands the IdP's answer, the expected state and nonce and the verifier to openid-client, which
 * exchanges the code (client_secret_basic) and validates the ID token (signature against the
 * IdP's JWKS, issuer, audience, azp, nonce, expiry, the `iss` response parameter).
 */
import * as client from 'openid-client';
import type { Deps } from '../../deps';
import { ServiceUnavailableError } from '../../errors';
import type { IdpConfigRecord, OidcSettingsRecord, SsoTransactionRecord, TenantRecord } from '../../store/records';
import type { FederatedLogin } from './federated-users';
import { createSsoTransaction, pkceVerifierOf, SsoResponseError, type SsoClient } from './login-transactions';
import { oidcConfiguration } from './oidc-client';
import type { SsoCallbackParams } from './sso-login-schemas';
import { serviceProviderEndpoints } from './sp-endpoints';

const SCOPE = 'openid email profile';

export async function startOidcLogin(deps: Deps, tenant: TenantRecord, idp: IdpConfigRecord & { oidc: OidcSettingsRecord }, ssoClient: SsoClient): Promise<string> {
  const configuration = await oidcConfiguration(deps, tenant.id, idp.oidc);
  const codeVerifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = await createSsoTransaction(deps, { tenantId: tenant.id, providerType: 'oidc', client: ssoClient, nonce, codeVerifier });
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: serviceProviderEndpoints(deps.config, tenant.slug).redirect_uri,
    response_type: 'code',
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return url.href;
}

const stringArray = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export async function completeOidcLogin(
  deps: Deps,
  tenant: TenantRecord,
  idp: IdpConfigRecord & { oidc: OidcSettingsRecord },
  transaction: SsoTransactionRecord,
  state: string,
  params: SsoCallbackParams,
): Promise<FederatedLogin> {
  if (params.error) throw new SsoResponseError(`The identity provider did not sign you in (${params.error})`, 'idp_refused');
  const configuration = await oidcConfiguration(deps, tenant.id, idp.oidc);
  const currentUrl = new URL(serviceProviderEndpoints(deps.config, tenant.slug).redirect_uri);
  for (const name of ['code', 'state', 'iss', 'session_state'] as const) {
    const value = params[name];
    if (value !== undefined) currentUrl.searchParams.set(name, value);
  }
  let claims: client.IDToken | undefined;
  let profile: Record<string, unknown> = {};
  try {
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: await pkceVerifierOf(deps, transaction),
      expectedState: state,
      expectedNonce: transaction.nonce ?? undefined,
      idTokenExpected: true,
    });
    claims = tokens.claims();
    profile = { ...claims };
    // Many IdPs put email only in the UserInfo answer (OIDC Core 5.4): ask it, for this subject.
    if (claims && typeof claims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
      profile = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    }
  } catch (error) {
    // An IdP that does not answer (or fails on its side) is trouble to retry, not a refusal:
    // the client gets `temporarily_unavailable`, not `access_denied`.
    if (isIdpUnavailable(error)) throw new ServiceUnavailableError('The identity provider did not answer', { cause: error });
    deps.observability.logger.info('OIDC callback refused', { tenant_id: tenant.id, reason: error instanceof Error ? error.message : 'unknown' });
    throw new SsoResponseError();
  }
  if (!claims) throw new SsoResponseError();
  return {
    providerType: 'oidc',
    issuer: claims.iss,
    subject: claims.sub,
    email: typeof profile.email === 'string' ? profile.email : undefined,
    // Only an explicit yes: a missing claim, or the string "false" some IdPs send, is not one.
    emailVerified: profile.email_verified === true || profile.email_verified === 'true',
    amr: stringArray(claims.amr),
    acr: typeof claims.acr === 'string' ? claims.acr : undefined,
    authTime: typeof claims.auth_time === 'number' ? claims.auth_time : undefined,
  };
}

export const oidcProtocol = { startOidc: startOidcLogin, completeOidc: completeOidcLogin } as const;

/** fetch's own network failure (refused, reset, DNS, timeout) or a 5xx answer of the IdP's token or UserInfo endpoint. */
function isIdpUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error instanceof TypeError && error.message === 'fetch failed') || error.name === 'TimeoutError') return true;
  const status = error instanceof client.ResponseBodyError ? error.status : error.cause instanceof Response ? error.cause.status : undefined;
  return status !== undefined && status >= 500;
}
