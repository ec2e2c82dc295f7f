/**
 * The state between a correct password and a completed MFA: an opaque `mfa_token` (stored as
 * a digest, five minutes, single use) naming the user, the workspace and how far the login got.
 */
import type { Deps } from '../deps';
import { UnauthenticatedError } from '../errors';
import { generateOpaqueToken, hasTokenShape, sha256Hex } from '../crypto/opaque-tokens';
import { keys } from '../store/keys';
import type { MfaTransactionRecord } from '../store/records';
import type { TransactItem } from '../store/table-client';

const LIFETIME_MS = 5 * 60_000;

/**
 * A new transaction as an item of the caller's transaction (the login's, with its audit event),
 * and the `mfa_token` that names it.
 */
export function newMfaTransaction(
  deps: Deps,
  input: { tenantId: string; userId: string; workspaceId: string; enrollmentRequired: boolean; amr: string[]; authTime: number },
): { token: string; item: TransactItem } {
  const token = generateOpaqueToken('mfa');
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + LIFETIME_MS);
  const record: MfaTransactionRecord = {
    token_hash: sha256Hex(token),
    tenant_id: input.tenantId,
    user_id: input.userId,
    workspace_id: input.workspaceId,
    enrollment_required: input.enrollmentRequired,
    amr: input.amr,
    auth_time: input.authTime,
    expires_at: expires.toISOString(),
    created_at: now.toISOString(),
  };
  return { token, item: deps.table.putItem({ ...keys.mfaTransaction(record.token_hash), ...record, ttl: Math.floor(expires.getTime() / 1000) }) };
}

export async function findMfaTransaction(deps: Deps, token: string): Promise<MfaTransactionRecord> {
  const invalid = new UnauthenticatedError('The MFA token is not valid or has expired; log in again');
  if (!hasTokenShape('mfa', token)) throw invalid;
  const record = await deps.table.get<MfaTransactionRecord>(keys.mfaTransaction(sha256Hex(token)));
  if (!record || Date.parse(record.expires_at) <= deps.clock.now().getTime()) throw invalid;
  return record;
}

/** Consumes the transaction inside the transaction that completes the login: it can complete only once. */
export function consumeMfaTransactionItem(deps: Deps, record: MfaTransactionRecord): TransactItem {
  return deps.table.deleteItem({ Key: keys.mfaTransaction(record.token_hash), ConditionExpression: 'attribute_exists(PK)' });
}
