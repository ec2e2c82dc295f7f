/**
 * Sessions: an access token plus a refresh token. Refresh tokens are opaque, stored as a
 * SHA-256 digest, strictly single-use and grouped in a family (one per login). Using one
 * marks it used and mints the next in one transaction that also checks the family is alive;
 * presenting a used one again revokes the whole family and ends the access tokens it issued
 * (token theft is assumed). The family id is the session id (`sid`) of every access token of
 * that login. A session ends `TESSERA_SESSION_MAX_SECONDS` after its sign-in however often it
 * refreshes: each refresh token carries that end and never outlives it.
 */
import { runWithConcurrency } from '../bounded-concurrency';
import { epochSeconds, isoNow } from '../clock';
import type { Deps } from '../deps';
import { ForbiddenError, UnauthenticatedError } from '../errors';
import { generateOpaqueToken, hasTokenShape, sha256Hex } from '../crypto/opaque-tokens';
import { auditEventPut, recordAuditEvent, type AuditEventOptions } from '../audit/audit-log';
import type { IdentityAuditAction } from '../audit/identity-audit-actions';
import { isConditionFailure } from '../store/client';
import { getUser } from '../store/identity-items';
import { keys } from '../store/keys';
import type { RefreshFamilyRecord, RefreshTokenRecord, UserRecord } from '../store/records';
import type { TransactItem } from '../store/table-client';
import { issueAccessToken, type TokenResponse } from './access-tokens';
import { getMfaPolicy, sessionWithoutMfaMayGoOn } from './mfa-policy';
import { permissionsFor } from './permissions';
import { markSessionEnded, markSessionsEnded, sessionHasEnded } from './session-revocation';

export interface SessionStart {
  user: UserRecord;
  workspaceId: string;
  amr: string[];
  authTime: number;
  mfaAt: number | undefined;
  /** Signed in through the tenant's IdP (ends with that configuration: `endFederatedSessions`). */
  federated?: boolean;
}

/** A session that exists: its refresh family id is the `sid` of its access tokens. */
export interface SessionContinuation extends SessionStart {
  sessionId: string;
}

/**
 * The workspace a session acts in: the one asked for when the user has a role there (a tenant
 * admin: when it is a workspace of their tenant), else the default. A token never names a
 * workspace that does not exist, or another tenant's.
 */
export async function workspaceFor(deps: Deps, user: UserRecord, requested: string | undefined): Promise<string> {
  if (requested === undefined) return user.default_workspace_id;
  if (user.roles[requested]) return requested;
  if (user.tenant_admin && (await deps.table.get(keys.workspace(user.tenant_id, requested)))) return requested;
  throw new ForbiddenError('You are not a member of that workspace, or it does not exist');
}

function refreshTokenItems(deps: Deps, start: SessionStart, familyId: string, sessionExpiresAt: Date): { token: string; item: TransactItem } {
  const token = generateOpaqueToken('refresh');
  const now = deps.clock.now();
  const expiresAt = new Date(Math.min(now.getTime() + deps.config.refreshTokenTtlDays * 86_400_000, sessionExpiresAt.getTime()));
  const record: RefreshTokenRecord = {
    token_hash: sha256Hex(token),
    tenant_id: start.user.tenant_id,
    user_id: start.user.id,
    workspace_id: start.workspaceId,
    family_id: familyId,
    amr: start.amr,
    auth_time: start.authTime,
    mfa_at: start.mfaAt ?? null,
    ...(start.federated ? { federated: true as const } : {}),
    expires_at: expiresAt.toISOString(),
    session_expires_at: sessionExpiresAt.toISOString(),
    used_at: null,
    created_at: now.toISOString(),
  };
  return {
    token,
    // Kept a day past expiry so a late reuse is still recognised as one.
    item: deps.table.putItem({ ...keys.refreshToken(record.token_hash), ...record, ttl: Math.floor(expiresAt.getTime() / 1000) + 86_400 }, { expression: 'attribute_not_exists(PK)' }),
  };
}

async function accessTokenFor(deps: Deps, start: SessionContinuation) {
  return issueAccessToken(deps, {
    userId: start.user.id,
    tenantId: start.user.tenant_id,
    workspaceId: start.workspaceId,
    scopes: permissionsFor(start.user.roles[start.workspaceId], start.user.tenant_admin),
    amr: start.amr,
    authTime: start.authTime,
    mfaAt: start.mfaAt,
    sessionId: start.sessionId,
  });
}

/** A completed login: a new refresh family, its first refresh token, an access token, and the audit event. */
export async function startSession(
  deps: Deps,
  start: SessionStart,
  audit: { action: IdentityAuditAction; sourceIp: string; payload?: Record<string, unknown> } & AuditEventOptions,
  extra: TransactItem[] = [],
): Promise<TokenResponse> {
  const familyId = deps.ids.next('fam');
  const family: RefreshFamilyRecord = {
    id: familyId, tenant_id: start.user.tenant_id, user_id: start.user.id, revoked_at: null, revoked_reason: null,
    ...(start.federated ? { federated: true } : {}), created_at: isoNow(deps.clock),
  };
  const sessionExpiresAt = new Date(deps.clock.now().getTime() + deps.config.sessionMaxSeconds * 1000);
  const refresh = refreshTokenItems(deps, start, familyId, sessionExpiresAt);
  const event = auditEventPut(deps, {
    log: 'identity', tenantId: start.user.tenant_id, workspaceId: start.workspaceId, actorId: start.user.id,
    action: audit.action, targetType: 'user', targetId: start.user.id, payload: { amr: start.amr, ...audit.payload }, sourceIp: audit.sourceIp,
  }, audit.head !== undefined ? { head: audit.head } : {});
  // Kept, like its refresh tokens, a day past the session's end (a late reuse is still one); the
  // expiry also bounds what `endFederatedSessions` reads in the tenant's partition.
  const familyTtl = Math.floor(sessionExpiresAt.getTime() / 1000) + 86_400;
  await deps.table.transact([...extra, deps.table.putItem({ ...keys.refreshFamily(family.tenant_id, family.user_id, familyId), ...family, ttl: familyTtl }), refresh.item, event.item]);
  const access = await accessTokenFor(deps, { ...start, sessionId: familyId });
  return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, refresh_token: refresh.token, tenant_id: start.user.tenant_id, workspace_id: start.workspaceId };
}

/** An access token alone (step-up): no new session, the caller's one goes on. */
export async function accessTokenResponse(deps: Deps, start: SessionContinuation): Promise<TokenResponse> {
  const access = await accessTokenFor(deps, start);
  return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, tenant_id: start.user.tenant_id, workspace_id: start.workspaceId };
}

export async function revokeRefreshFamily(deps: Deps, family: { tenantId: string; userId: string; familyId: string }, reason: string): Promise<void> {
  await deps.table.update({
    Key: keys.refreshFamily(family.tenantId, family.userId, family.familyId),
    UpdateExpression: 'SET revoked_at = :now, revoked_reason = :reason',
    // Stored as null until revoked; the first revocation's time and reason stay.
    ConditionExpression: 'attribute_exists(PK) AND revoked_at = :null',
    ExpressionAttributeValues: { ':now': isoNow(deps.clock), ':reason': reason, ':null': null },
  }).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}

const familyOf = (record: RefreshTokenRecord) => ({ tenantId: record.tenant_id, userId: record.user_id, familyId: record.family_id });

/** The end of the session a refresh token belongs to (older tokens: their sign-in + the maximum). */
function sessionExpiresAtOf(deps: Deps, record: RefreshTokenRecord): Date {
  return record.session_expires_at !== undefined ? new Date(record.session_expires_at) : new Date((record.auth_time + deps.config.sessionMaxSeconds) * 1000);
}

/** A reused refresh token: the family is revoked and the access tokens it issued end now too. */
async function endReusedSession(deps: Deps, record: RefreshTokenRecord): Promise<void> {
  await revokeRefreshFamily(deps, familyOf(record), 'reuse');
  await markSessionEnded(deps, record.tenant_id, record.user_id, record.family_id);
}

export async function refreshSession(deps: Deps, input: { refreshToken: string; workspaceId: string | undefined }, sourceIp: string): Promise<TokenResponse> {
  const invalid = () => new UnauthenticatedError('The refresh token is not valid');
  if (!hasTokenShape('refresh', input.refreshToken)) throw invalid();
  const hash = sha256Hex(input.refreshToken);
  const record = await deps.table.get<RefreshTokenRecord>(keys.refreshToken(hash));
  if (!record) throw invalid();
  const sessionExpiresAt = sessionExpiresAtOf(deps, record);
  const nowMs = deps.clock.now().getTime();
  if (Date.parse(record.expires_at) <= nowMs || sessionExpiresAt.getTime() <= nowMs) throw invalid();

  if (record.used_at) {
    await endReusedSession(deps, record);
    await recordAuditEvent(deps, {
      log: 'identity', tenantId: record.tenant_id, workspaceId: record.workspace_id, actorId: null,
      action: 'refresh_token_reused', targetType: 'user', targetId: record.user_id, payload: { family_id: record.family_id }, sourceIp,
    });
    throw invalid();
  }

  const user = await getUser(deps, record.tenant_id, record.user_id);
  if (!user || user.status !== 'active') throw invalid();
  // Normally its family is revoked too; this also covers a family a revocation sweep missed.
  if (sessionHasEnded(user, { sessionId: record.family_id, authTime: record.auth_time }, epochSeconds(deps.clock))) throw invalid();
  const start: SessionContinuation = {
    sessionId: record.family_id,
    user,
    workspaceId: await workspaceFor(deps, user, input.workspaceId ?? record.workspace_id),
    amr: record.amr,
    authTime: record.auth_time,
    mfaAt: record.mfa_at ?? undefined,
    federated: record.federated === true,
  };
  // Only a password session without MFA has the policy to ask (a read on those refreshes alone).
  if (!start.federated && start.mfaAt === undefined && !sessionWithoutMfaMayGoOn(await getMfaPolicy(deps, user.tenant_id), user)) {
    throw new UnauthenticatedError('Your organisation now requires multi-factor authentication, and this session began without it: sign in again');
  }
  const next = refreshTokenItems(deps, start, record.family_id, sessionExpiresAt);
  // A refresh token is single-use, so its use is audited every time, with the exchange.
  const used = auditEventPut(deps, {
    log: 'identity', tenantId: record.tenant_id, workspaceId: start.workspaceId, actorId: record.user_id,
    action: 'token_used', targetType: 'user', targetId: record.user_id, payload: { kind: 'refresh', family_id: record.family_id }, sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.refreshToken(hash),
        UpdateExpression: 'SET used_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND used_at = :null',
        ExpressionAttributeValues: { ':now': isoNow(deps.clock), ':null': null },
      }),
      deps.table.conditionCheck({
        Key: keys.refreshFamily(record.tenant_id, record.user_id, record.family_id),
        ConditionExpression: 'attribute_exists(PK) AND revoked_at = :null',
        ExpressionAttributeValues: { ':null': null },
      }),
      next.item,
      used.item,
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Either a parallel use won the race (a reuse: end the session) or the family was already
    // revoked (ending it again changes nothing).
    await endReusedSession(deps, record);
    throw invalid();
  }
  const access = await accessTokenFor(deps, start);
  return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, refresh_token: next.token, tenant_id: user.tenant_id, workspace_id: start.workspaceId };
}

export async function logout(deps: Deps, refreshToken: string, sourceIp: string): Promise<void> {
  if (!hasTokenShape('refresh', refreshToken)) return;
  const record = await deps.table.get<RefreshTokenRecord>(keys.refreshToken(sha256Hex(refreshToken)));
  if (!record) return;
  await revokeRefreshFamily(deps, familyOf(record), 'logout');
  // The access tokens of the session end now too, not when they expire.
  await markSessionEnded(deps, record.tenant_id, record.user_id, record.family_id);
  await recordAuditEvent(deps, {
    log: 'identity', tenantId: record.tenant_id, workspaceId: record.workspace_id, actorId: record.user_id,
    action: 'logout', targetType: 'user', targetId: record.user_id, payload: { session_id: record.family_id }, sourceIp,
  });
}

/** Revoke every refresh family of a user (password reset, disable), or every other one (password change). */
export async function revokeAllSessions(deps: Deps, tenantId: string, userId: string, reason: string, options: { except?: string | undefined } = {}): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await deps.table.queryPrefix<RefreshFamilyRecord>(keys.refreshFamiliesOfUser(tenantId, userId), { limit: 100, cursor }, {
      filter: { expression: 'revoked_at = :null', values: { ':null': null } },
    });
    await Promise.all(page.items.filter((f) => f.id !== options.except).map((f) => revokeRefreshFamily(deps, { tenantId, userId, familyId: f.id }, reason)));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** Live federated sessions ended by one request at a time (each is two small writes). */
const FEDERATED_SESSION_ENDS_IN_PARALLEL = 8;

/**
 * Ends every live session of a tenant that was signed in through its IdP (the configuration is
 * deleted or deactivated): each family is revoked (refresh: 401) and marked ended on its user
 * record (access tokens: 401), the same marks a logout makes. Local-password sessions stay.
 *
 * Why a sweep now rather than a check on each request: authentication reads only the user
 * record, and the tenant's IdP configuration is not read on any authenticated request, so an
 * "IdP generation" compared per request would cost every federated request one more item read
 * (and every refresh one). Ending the sessions here costs one consistent query of the tenant's
 * refresh families (bounded: a family expires a day after its session's end) plus two writes per
 * live federated session, once, on an administrator's rare change. A sign-in racing the change
 * cannot slip past: exchanging an SSO code checks, in the transaction that creates the family,
 * that the configuration still exists and is active (`sso-codes.ts`), and the callers switch the
 * configuration off before calling this, so a family is either seen here or never created.
 * Idempotent: a failure part-way is finished by repeating the request.
 */
export async function endFederatedSessions(deps: Deps, tenantId: string, reason: string): Promise<number> {
  let ended = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.table.queryPrefix<RefreshFamilyRecord>(keys.refreshFamiliesOfTenant(tenantId), { limit: 100, cursor }, {
      filter: { expression: 'revoked_at = :null AND federated = :true', values: { ':null': null, ':true': true } },
    });
    const byUser = new Map<string, string[]>();
    for (const family of page.items) byUser.set(family.user_id, [...(byUser.get(family.user_id) ?? []), family.id]);
    await runWithConcurrency([...byUser], FEDERATED_SESSION_ENDS_IN_PARALLEL, async ([userId, familyIds]) => {
      // Revoked first: should the marker fail, the refresh tokens are already refused.
      await Promise.all(familyIds.map((familyId) => revokeRefreshFamily(deps, { tenantId, userId, familyId }, reason)));
      await markSessionsEnded(deps, tenantId, userId, familyIds);
    });
    ended += page.items.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ended;
}
