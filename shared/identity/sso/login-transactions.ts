/**
 * A login in flight between /start and /callback: a random `state` (OIDC) or RelayState
 * (SAML) handed to the IdP, stored only as a digest, ten minutes, single use. It remembers
 * the redirect URI the client asked for, the OIDC nonce and PKCE verifier (the verifier
 * envelope-encrypted), or the SAML AuthnRequest ID the response must answer.
 *
 * Consumption is one conditional delete that returns the item: of two callbacks presenting
 * the same state only one gets it, and a failed callback burns it too.
 */
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps';
import { encryptionContext } from '../../crypto/encryption-contexts';
import { envelopeOf } from '../../crypto/envelope';
import { UnauthenticatedError } from '../../errors';
import { sha256Hex } from '../../crypto/opaque-tokens';
import { isConditionFailure } from '../../store/client';
import { keys } from '../../store/keys';
import type { SsoTransactionRecord } from '../../store/records';
import { withoutKeys } from '../../store/table-client';
import type { ProviderType } from './schemas';

const LIFETIME_MS = 10 * 60_000;
const STATE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The IdP's answer did not sign anyone in; `reason` goes into the `login_failed` audit event. */
export class SsoResponseError extends UnauthenticatedError {
  readonly reason: string;

  constructor(detail = 'The single sign-on response is not valid; start the login again', reason = 'invalid_response') {
    super(detail);
    this.reason = reason;
  }
}

/**
 * What the client application gave `/start`: where to return, and optionally its own `state`
 * (echoed on that redirect, so the client can tell the answer belongs to the login it began:
 * login CSRF) and a PKCE `code_challenge` (S256) that the `sso_code` exchange must answer with
 * its verifier, so a code that leaks from the redirect URL is useless to anyone else.
 */
export interface SsoClient {
  redirectUri: string;
  state?: string | undefined;
  codeChallenge?: string | undefined;
  /**
   * Set only by `POST /v1/me/federated-identities/link`: the signed-in user the identity the IdP
   * asserts is to be linked to. The callback then links instead of signing in.
   */
  linkUserId?: string | undefined;
}

/** A new `state` / RelayState: 256 random bits. */
export const newSsoState = () => randomBytes(32).toString('base64url');

export async function createSsoTransaction(
  deps: Deps,
  input: { tenantId: string; providerType: ProviderType; client: SsoClient; nonce?: string; codeVerifier?: string; samlRequestId?: string; state?: string },
): Promise<string> {
  const state = input.state ?? newSsoState();
  const stateHash = sha256Hex(state);
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + LIFETIME_MS);
  const record: SsoTransactionRecord = {
    state_hash: stateHash,
    tenant_id: input.tenantId,
    provider_type: input.providerType,
    redirect_uri: input.client.redirectUri,
    client_state: input.client.state ?? null,
    client_code_challenge: input.client.codeChallenge ?? null,
    link_user_id: input.client.linkUserId ?? null,
    nonce: input.nonce ?? null,
    code_verifier_encrypted: input.codeVerifier ? await (await envelopeOf(deps)).encrypt(input.codeVerifier, encryptionContext('sso_pkce_verifier', { tenant_id: input.tenantId, state_hash: stateHash })) : null,
    saml_request_id: input.samlRequestId ?? null,
    expires_at: expires.toISOString(),
    created_at: now.toISOString(),
  };
  await deps.table.put({ Item: { ...keys.ssoTransaction(stateHash), ...record, ttl: Math.floor(expires.getTime() / 1000) }, ConditionExpression: 'attribute_not_exists(PK)' });
  return state;
}

/** Takes the transaction out of the table (once) and checks it belongs to this tenant and is fresh. */
export async function consumeSsoTransaction(deps: Deps, tenantId: string, state: string | undefined): Promise<SsoTransactionRecord> {
  if (!state || !STATE_SHAPE.test(state)) throw new SsoResponseError();
  let removed: Record<string, unknown> | undefined;
  try {
    const out = await deps.table.delete({ Key: keys.ssoTransaction(sha256Hex(state)), ConditionExpression: 'attribute_exists(PK)', ReturnValues: 'ALL_OLD' });
    removed = out.Attributes;
  } catch (error) {
    if (isConditionFailure(error)) throw new SsoResponseError();
    throw error;
  }
  const record = removed ? withoutKeys<SsoTransactionRecord>(removed) : undefined;
  if (!record || record.tenant_id !== tenantId || Date.parse(record.expires_at) <= deps.clock.now().getTime()) throw new SsoResponseError();
  return record;
}

export async function pkceVerifierOf(deps: Deps, record: SsoTransactionRecord): Promise<string> {
  if (!record.code_verifier_encrypted) throw new SsoResponseError();
  return (await envelopeOf(deps)).decrypt(record.code_verifier_encrypted, encryptionContext('sso_pkce_verifier', { tenant_id: record.tenant_id, state_hash: record.state_hash }));
}
