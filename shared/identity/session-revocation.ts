/**
 * Which sign-in sessions of a user have ended, decided from the user record alone (the record
 * authentication reads on every request anyway, so ending a session adds no read):
 * - `sessions_valid_after` (password reset, enable again): every sign-in before it;
 * - `other_sessions_valid_after` + `kept_session_id` (password change): every sign-in before
 *   it except the session that made the change;
 * - `revoked_sessions` (logout, a reused refresh token, the tenant's IdP deleted or deactivated
 *   for a federated session): those sessions, until their last access token has expired.
 * Refresh families are revoked as well; this is what ends the access tokens already issued.
 */
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { isConditionFailure } from '../store/client';
import { getUser } from '../store/identity-items';
import { keys } from '../store/keys';
import type { UserRecord } from '../store/records';
import { ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS } from './access-tokens';

export interface SessionOfCredential {
  /** The `sid` of an access token or the family of a refresh token; undefined for tokens older than the claim. */
  sessionId: string | undefined;
  /** Epoch seconds of the sign-in. */
  authTime: number;
}

export function sessionHasEnded(user: UserRecord, session: SessionOfCredential, nowSeconds: number): boolean {
  if (user.sessions_valid_after !== undefined && session.authTime < user.sessions_valid_after) return true;
  if (user.other_sessions_valid_after !== undefined && session.authTime < user.other_sessions_valid_after && session.sessionId !== user.kept_session_id) return true;
  if (session.sessionId === undefined) return false;
  const revokedUntil = user.revoked_sessions?.[session.sessionId];
  return revokedUntil !== undefined && revokedUntil > nowSeconds;
}

/** Attempts at the read-modify-write of the marker before giving up to a busy user record. */
const MARKER_WRITE_ATTEMPTS = 5;

/**
 * Marks sessions of one user as ended on its user record until every access token they may
 * still hold has expired (TTL plus the verifier's clock tolerance), dropping the entries that
 * no longer matter so the record stays small. Written only over the map it was computed from.
 */
export async function markSessionsEnded(deps: Deps, tenantId: string, userId: string, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  for (let attempt = 1; ; attempt++) {
    const user = await getUser(deps, tenantId, userId);
    if (!user) return;
    const now = epochSeconds(deps.clock);
    const current = user.revoked_sessions;
    const next = Object.fromEntries(Object.entries(current ?? {}).filter(([, until]) => until > now));
    for (const sessionId of sessionIds) next[sessionId] = now + deps.config.jwt.accessTokenTtlSeconds + ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS;
    try {
      await deps.table.update({
        Key: keys.user(tenantId, userId),
        UpdateExpression: 'SET revoked_sessions = :next',
        ConditionExpression: current === undefined ? 'attribute_exists(PK) AND attribute_not_exists(revoked_sessions)' : 'attribute_exists(PK) AND revoked_sessions = :current',
        ExpressionAttributeValues: { ':next': next, ...(current === undefined ? {} : { ':current': current }) },
      });
      return;
    } catch (error) {
      if (!isConditionFailure(error) || attempt >= MARKER_WRITE_ATTEMPTS) throw error;
    }
  }
}

/** One session (logout, a reused refresh token): `markSessionsEnded` for a single id. */
export const markSessionEnded = (deps: Deps, tenantId: string, userId: string, sessionId: string): Promise<void> => markSessionsEnded(deps, tenantId, userId, [sessionId]);
