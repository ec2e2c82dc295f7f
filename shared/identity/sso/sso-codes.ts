/**
 * The single-use, 60-second code that ends an SSO callback (`redirect_uri?code=…`) and that
 * `POST /v1/auth/token` (`grant_type: sso_code`) exchanges for a session. Stored as a digest;
 * the exchange deletes it in the same transaction that starts the session, so a code wins
 * once even when presented twice in parallel. The login event, written then, carries the
 * IdP's amr and acr.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps';
import { UnauthenticatedError } from '../../errors';
import { generateOpaqueToken, hasTokenShape, sha256Hex } from '../../crypto/opaque-tokens';
import { metricNames } from '../../observability';
import { isConditionFailure } from '../../store/client';
import { getUser } from '../../store/identity-items';
import { keys } from '../../store/keys';
import type { SsoCodeRecord, UserRecord } from '../../store/records';
import type { TokenResponse } from '../access-tokens';
import { startSession } from '../sessions';
import type { ProviderType } from './schemas';

const LIFETIME_MS = 60_000;

export async function mintSsoCode(
  deps: Deps,
  input: { user: UserRecord; providerType: ProviderType; issuer: string; amr: string[]; acr: string | undefined; authTime: number; mfaAt: number | undefined; provisioned: boolean; codeChallenge?: string | undefined },
): Promise<string> {
  const code = generateOpaqueToken('ssoCode');
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + LIFETIME_MS);
  const record: SsoCodeRecord = {
    code_hash: sha256Hex(code),
    tenant_id: input.user.tenant_id,
    user_id: input.user.id,
    workspace_id: input.user.default_workspace_id,
    provider_type: input.providerType,
    issuer: input.issuer,
    amr: input.amr,
    acr: input.acr ?? null,
    auth_time: input.authTime,
    mfa_at: input.mfaAt ?? null,
    jit_provisioned: input.provisioned,
    code_challenge: input.codeChallenge ?? null,
    expires_at: expires.toISOString(),
    created_at: now.toISOString(),
  };
  await deps.table.put({ Item: { ...keys.ssoCode(record.code_hash), ...record, ttl: Math.floor(expires.getTime() / 1000) + 60 }, ConditionExpression: 'attribute_not_exists(PK)' });
  return code;
}

/** RFC 7636 S256: BASE64URL(SHA-256(verifier)), compared in constant time. */
function pkceMatches(challenge: string, verifier: string | undefined): boolean {
  if (verifier === undefined) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export async function exchangeSsoCode(deps: Deps, code: string, codeVerifier: string | undefined, sourceIp: string): Promise<TokenResponse> {
  const invalid = () => new UnauthenticatedError('The SSO code is not valid');
  if (!hasTokenShape('ssoCode', code)) throw invalid();
  const hash = sha256Hex(code);
  const record = await deps.table.get<SsoCodeRecord>(keys.ssoCode(hash));
  if (!record || Date.parse(record.expires_at) <= deps.clock.now().getTime()) throw invalid();
  if (record.code_challenge && !pkceMatches(record.code_challenge, codeVerifier)) throw invalid();
  const user = await getUser(deps, record.tenant_id, record.user_id);
  if (!user || user.status !== 'active') throw invalid();
  try {
    const tokens = await startSession(
      deps,
      { user, workspaceId: record.workspace_id, amr: record.amr, authTime: record.auth_time, mfaAt: record.mfa_at ?? undefined, federated: true },
      { action: 'login_succeeded', sourceIp, payload: { method: 'sso', provider_type: record.provider_type, idp_issuer: record.issuer, acr: record.acr, idp_mfa: record.mfa_at !== null, jit_provisioned: record.jit_provisioned } },
      [deps.table.deleteItem({ Key: keys.ssoCode(hash), ConditionExpression: 'attribute_exists(PK)' })],
    );
    deps.observability.count(metricNames.loginSuccess, { method: 'sso' });
    return tokens;
  } catch (error) {
    if (isConditionFailure(error)) throw invalid();
    throw error;
  }
}
