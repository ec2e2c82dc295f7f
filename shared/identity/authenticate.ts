/**
 * Turns an `Authorization: Bearer …` header into a Principal, or refuses with 401.
 * Either credential kind ends in the same checks: the user exists in the token's tenant and
 * is active (so disabling a user cuts off every token at once), an access token's session has
 * not ended (password reset or change, logout: `session-revocation.ts`), and the effective
 * permissions are the user's current permissions in the token's workspace ∩ its scopes.
 *
 * A route may ask for one more item to be read in the same round trip as the user record (an
 * `ItemAlongside`): its key is made from the verified credential only, and the item is handed
 * back only together with the principal, so a refused credential never sees it.
 */
import type { Deps } from '../deps';
import { UnauthenticatedError } from '../errors';
import { tokenPrefixes } from '../crypto/opaque-tokens';
import { metricNames } from '../observability';
import { getUser } from '../store/identity-items';
import { keys, type ItemKey } from '../store/keys';
import type { UserRecord } from '../store/records';
import type { StoredItem } from '../store/table-client';
import { epochSeconds } from '../clock';
import { verifyAccessToken } from './access-tokens';
import { intersectScopes, permissionsFor } from './permissions';
import { findUsablePersonalAccessToken, markPersonalAccessTokenUsed } from './personal-access-tokens';
import type { Credential, Principal } from './principal';
import { sessionHasEnded } from './session-revocation';

/** Who a verified credential says is calling, before the user record has been checked. */
export interface VerifiedCaller {
  tenantId: string;
  workspaceId: string;
  userId: string;
  /** The credential's scopes: an upper bound of the permissions the caller will have. */
  scopes: readonly string[];
}

/**
 * The key of an item to read with the caller's user record, made from the verified caller
 * (never from anything else the request says about tenant or workspace); undefined reads
 * nothing more.
 */
export type ItemAlongside = (caller: VerifiedCaller) => ItemKey | undefined;

export interface Authentication {
  principal: Principal;
  /** The item read alongside the user record, with the key it was read under. */
  alongside?: { key: ItemKey; item: StoredItem | undefined };
}

/** The user record (and the item alongside, in the same BatchGetItem); 401 unless the user is active. */
async function activeUser(deps: Deps, caller: VerifiedCaller, alongside: ItemAlongside | undefined): Promise<{ user: UserRecord; alongside?: Authentication['alongside'] }> {
  const key = alongside?.(caller);
  let user: UserRecord | undefined;
  let item: StoredItem | undefined;
  if (key) {
    const userKey = keys.user(caller.tenantId, caller.userId);
    const found = await deps.table.getItems([userKey, key]);
    user = found.get<UserRecord>(userKey);
    item = found.get<StoredItem>(key);
  } else user = await getUser(deps, caller.tenantId, caller.userId);
  if (!user || user.status !== 'active') throw new UnauthenticatedError('The credential is no longer valid');
  return key ? { user, alongside: { key, item } } : { user };
}

function principalOf(user: UserRecord, workspaceId: string, scopes: readonly string[], credential: Credential): Principal {
  const role = user.roles[workspaceId];
  return {
    userId: user.id,
    tenantId: user.tenant_id,
    workspaceId,
    role,
    tenantAdmin: user.tenant_admin,
    permissions: intersectScopes(permissionsFor(role, user.tenant_admin), scopes),
    credential,
  };
}

export async function authenticateBearer(deps: Deps, authorization: string, sourceIp: string | null = null, alongside?: ItemAlongside): Promise<Authentication> {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization);
  if (!match) throw new UnauthenticatedError('Use Authorization: Bearer <token>');
  const credential = match[1]!;

  if (credential.startsWith(tokenPrefixes.pat)) {
    const token = await findUsablePersonalAccessToken(deps, credential);
    const { user, ...read } = await activeUser(deps, { tenantId: token.tenant_id, workspaceId: token.workspace_id, userId: token.user_id, scopes: token.scopes }, alongside);
    if (user.pats_valid_after !== undefined && token.created_at < user.pats_valid_after) {
      throw new UnauthenticatedError('The personal access token was made before the user was disabled; make a new one');
    }
    await markPersonalAccessTokenUsed(deps, token, sourceIp);
    deps.observability.count(metricNames.tokenUse, { kind: 'pat' });
    return { principal: principalOf(user, token.workspace_id, token.scopes, { kind: 'pat', tokenId: token.id }), ...read };
  }
  // Other opaque secrets of ours (refresh tokens, MFA transactions) are never bearer credentials.
  if (credential.startsWith('tsr_')) throw new UnauthenticatedError('This token cannot be used as a bearer credential');

  const claims = await verifyAccessToken(deps, credential);
  const { user, ...read } = await activeUser(deps, claims, alongside);
  if (sessionHasEnded(user, claims, epochSeconds(deps.clock))) {
    throw new UnauthenticatedError('The credential is no longer valid; sign in again');
  }
  deps.observability.count(metricNames.tokenUse, { kind: 'jwt' });
  const principal = principalOf(user, claims.workspaceId, claims.scopes, {
    kind: 'access_token',
    jti: claims.jti,
    sessionId: claims.sessionId,
    amr: [...claims.amr],
    authTime: claims.authTime,
    mfaAt: claims.mfaAt,
  });
  return { principal, ...read };
}
