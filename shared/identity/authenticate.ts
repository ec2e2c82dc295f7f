/**
 * Turns an `Authorization: Bearer …` header into a Principal, or refuses with 401.
 * Either credential kind ends in the same checks: the user exists in the token's tenant and
 * is active (so disabling a user cuts off every token at once), an access token's session has
 * not ended (password reset or change, logout: `session-revocation.ts`), and the effective
 * permissions are the user's current permissions in the token's workspace ∩ its scopes.
 */
import type { Deps } from '../deps';
import { UnauthenticatedError } from '../errors';
import { tokenPrefixes } from '../crypto/opaque-tokens';
import { metricNames } from '../observability';
import { getUser } from '../store/identity-items';
import type { UserRecord } from '../store/records';
import { epochSeconds } from '../clock';
import { verifyAccessToken } from './access-tokens';
import { intersectScopes, permissionsFor } from './permissions';
import { findUsablePersonalAccessToken, markPersonalAccessTokenUsed } from './personal-access-tokens';
import type { Credential, Principal } from './principal';
import { sessionHasEnded } from './session-revocation';

async function activeUser(deps: Deps, tenantId: string, userId: string): Promise<UserRecord> {
  const user = await getUser(deps, tenantId, userId);
  if (!user || user.status !== 'active') throw new UnauthenticatedError('The credential is no longer valid');
  return user;
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

export async function authenticateBearer(deps: Deps, authorization: string, sourceIp: string | null = null): Promise<Principal> {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization);
  if (!match) throw new UnauthenticatedError('Use Authorization: Bearer <token>');
  const credential = match[1]!;

  if (credential.startsWith(tokenPrefixes.pat)) {
    const token = await findUsablePersonalAccessToken(deps, credential);
    const user = await activeUser(deps, token.tenant_id, token.user_id);
    if (user.pats_valid_after !== undefined && token.created_at < user.pats_valid_after) {
      throw new UnauthenticatedError('The personal access token was made before the user was disabled; make a new one');
    }
    await markPersonalAccessTokenUsed(deps, token, sourceIp);
    deps.observability.count(metricNames.tokenUse, { kind: 'pat' });
    return principalOf(user, token.workspace_id, token.scopes, { kind: 'pat', tokenId: token.id });
  }
  // Other opaque secrets of ours (refresh tokens, MFA transactions) are never bearer credentials.
  if (credential.startsWith('tsr_')) throw new UnauthenticatedError('This token cannot be used as a bearer credential');

  const claims = await verifyAccessToken(deps, credential);
  const user = await activeUser(deps, claims.tenantId, claims.userId);
  if (sessionHasEnded(user, claims, epochSeconds(deps.clock))) {
    throw new UnauthenticatedError('The credential is no longer valid; sign in again');
  }
  deps.observability.count(metricNames.tokenUse, { kind: 'jwt' });
  return principalOf(user, claims.workspaceId, claims.scopes, {
    kind: 'access_token',
    jti: claims.jti,
    sessionId: claims.sessionId,
    amr: [...claims.amr],
    authTime: claims.authTime,
    mfaAt: claims.mfaAt,
  });
}
