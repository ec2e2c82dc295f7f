/**
 * Personal access tokens: opaque (`tsr_pat_…` with a checksum), stored as a SHA-256 digest,
 * shown once. A PAT acts in the workspace it was created in, with scopes ⊆ its creator's
 * permissions there. Rotation revokes the old token in the same transaction that creates the new.
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError, ForbiddenError, LimitExceededError, NotFoundError, UnauthenticatedError, ValidationError } from '../errors';
import { generateOpaqueToken, hasTokenShape, sha256Hex } from '../crypto/opaque-tokens';
import { auditEventPut } from '../audit/audit-log';
import { isConditionFailure } from '../store/client';
import { countLimits, failedConditionAt } from '../store/item-counts';
import { keys } from '../store/keys';
import type { PersonalAccessTokenRecord } from '../store/records';
import type { Page, PageRequest, TransactItem } from '../store/table-client';
import { isPermission } from './permissions';
import type { Principal } from './principal';

const DAY_MS = 86_400_000;
/** last_used_at is written at most this often, so authentication is not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** A PAT's use is audited (token_used) at most once an hour per token, with the same write. */
const USE_AUDIT_INTERVAL_MS = 3_600_000;

export type PersonalAccessTokenView = Omit<PersonalAccessTokenRecord, 'token_hash' | 'tenant_id' | 'user_id'>;
export type CreatedPersonalAccessToken = PersonalAccessTokenView & { token: string };

export function toTokenView(record: PersonalAccessTokenRecord): PersonalAccessTokenView {
  return {
    id: record.id,
    name: record.name,
    scopes: record.scopes,
    workspace_id: record.workspace_id,
    expires_at: record.expires_at,
    created_at: record.created_at,
    last_used_at: record.last_used_at,
    revoked_at: record.revoked_at,
  };
}

function newTokenRecord(deps: Deps, principal: Principal, input: { name: string; scopes: string[]; expiresAt: (now: Date) => Date }) {
  const token = generateOpaqueToken('pat');
  const now = deps.clock.now();
  const record: PersonalAccessTokenRecord = {
    id: deps.ids.next('tok'),
    tenant_id: principal.tenantId,
    user_id: principal.userId,
    workspace_id: principal.workspaceId,
    name: input.name,
    token_hash: sha256Hex(token),
    scopes: input.scopes,
    expires_at: input.expiresAt(now).toISOString(),
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  const item = {
    ...keys.personalAccessToken(record.token_hash),
    ...keys.personalAccessTokenOwner(record.tenant_id, record.user_id, record.id),
    ...record,
  };
  return { token, record, item };
}

/**
 * The roster of a user's active PATs: one item, an attribute per token (its id → its expiry,
 * epoch ms), and a `version` that every change moves. The 50-per-user limit counts it: a
 * creation reads it, leaves out what has expired (an expired token stops counting the moment
 * it expires, without any write), refuses at the limit, and writes it back whole with the new
 * token, in the token's transaction and on the condition that the version is still the one it
 * read; a revocation or rotation moves the version in its own transaction. So two creations
 * that race cannot both take the last place: one's condition fails and it reads again. 50
 * entries of ~40 bytes keep the item near 2 KB.
 *
 * A user whose tokens predate the roster has none yet (`built` unset; a revocation may have
 * left an item with only a version): the first creation builds it from the tokens themselves.
 */
const ROSTER_ATTEMPTS = 3;
const isTokenId = (name: string) => name.startsWith('tok_');

async function activeTokenExpiries(deps: Deps, principal: Principal): Promise<{ version: number; active: Record<string, number> }> {
  const now = deps.clock.now().getTime();
  const roster = await deps.table.get<Record<string, unknown>>(keys.personalAccessTokenRoster(principal.tenantId, principal.userId));
  const version = typeof roster?.version === 'number' ? roster.version : 0;
  const active: Record<string, number> = {};
  if (roster?.built === true) {
    for (const [name, value] of Object.entries(roster)) if (isTokenId(name) && typeof value === 'number' && value > now) active[name] = value;
    return { version, active };
  }
  const owner = keys.personalAccessTokensOfUser(principal.tenantId, principal.userId);
  let cursor: string | undefined;
  do {
    const page = await deps.table.queryIndexPrefix<PersonalAccessTokenRecord>('GSI1', owner.GSI1PK, owner.GSI1SKPrefix, { limit: 100, cursor });
    for (const token of page.items) if (!token.revoked_at && Date.parse(token.expires_at) > now) active[token.id] = Date.parse(token.expires_at);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { version, active };
}

/** A revocation's or rotation's change of the roster: no condition, so it never refuses them. */
function rosterChangeItem(deps: Deps, principal: Principal, change: { remove: string; add?: PersonalAccessTokenRecord }): TransactItem {
  return deps.table.updateItem({
    Key: keys.personalAccessTokenRoster(principal.tenantId, principal.userId),
    UpdateExpression: `REMOVE #old${change.add ? ' SET #new = :expires' : ''} ADD #version :one`,
    ExpressionAttributeNames: { '#old': change.remove, '#version': 'version', ...(change.add ? { '#new': change.add.id } : {}) },
    ExpressionAttributeValues: { ':one': 1, ...(change.add ? { ':expires': Date.parse(change.add.expires_at) } : {}) },
  });
}

export async function createPersonalAccessToken(
  deps: Deps,
  principal: Principal,
  input: { name: string; scopes: string[]; expires_in_days: number },
  sourceIp: string,
): Promise<CreatedPersonalAccessToken> {
  const scopes = [...new Set(input.scopes)];
  const unknown = scopes.filter((s) => !isPermission(s));
  if (unknown.length) throw new ValidationError(unknown.map((s) => ({ path: 'scopes', message: `${s} is not a registered permission` })));
  const notHeld = scopes.filter((s) => !(principal.permissions as string[]).includes(s));
  if (notHeld.length) throw new ForbiddenError(`You cannot grant scopes you do not hold: ${notHeld.join(', ')}`);

  const { token, record, item } = newTokenRecord(deps, principal, { name: input.name, scopes, expiresAt: (now) => new Date(now.getTime() + input.expires_in_days * DAY_MS) });
  const audit = auditEventPut(deps, {
    log: 'identity', tenantId: principal.tenantId, workspaceId: principal.workspaceId, actorId: principal.userId,
    action: 'token_created', targetType: 'personal_access_token', targetId: record.id,
    payload: { name: record.name, scopes, expires_at: record.expires_at }, sourceIp,
  });
  const limit = countLimits.personalAccessTokensPerUser;
  for (let attempt = 1; attempt <= ROSTER_ATTEMPTS; attempt++) {
    const { version, active } = await activeTokenExpiries(deps, principal);
    if (Object.keys(active).length >= limit) throw new LimitExceededError(`You have ${limit} active personal access tokens, the most a user may have; revoke one first`);
    const roster = deps.table.putItem(
      { ...keys.personalAccessTokenRoster(principal.tenantId, principal.userId), built: true, version: version + 1, ...active, [record.id]: Date.parse(record.expires_at) },
      version === 0 ? { expression: 'attribute_not_exists(#version)', names: { '#version': 'version' } } : { expression: '#version = :read', names: { '#version': 'version' }, values: { ':read': version } },
    );
    try {
      await deps.table.transact([roster, deps.table.putItem(item, { expression: 'attribute_not_exists(PK)' }), audit.item]);
      return { ...toTokenView(record), token };
    } catch (error) {
      if (!failedConditionAt(error, 0)) throw error;
    }
  }
  throw new ConflictError('Your tokens were being changed by other requests meanwhile; try again');
}

export async function listPersonalAccessTokens(deps: Deps, principal: Principal, page: PageRequest): Promise<Page<PersonalAccessTokenView>> {
  const owner = keys.personalAccessTokensOfUser(principal.tenantId, principal.userId);
  const result = await deps.table.queryIndexPrefix<PersonalAccessTokenRecord>('GSI1', owner.GSI1PK, owner.GSI1SKPrefix, page);
  return { items: result.items.map(toTokenView), nextCursor: result.nextCursor };
}

/** The caller's own token by id; another user's token is simply not found. */
async function getOwnToken(deps: Deps, principal: Principal, tokenId: string): Promise<PersonalAccessTokenRecord> {
  const owner = keys.personalAccessTokenOwner(principal.tenantId, principal.userId, tokenId);
  const page = await deps.table.queryIndexPrefix<PersonalAccessTokenRecord>('GSI1', owner.GSI1PK, owner.GSI1SK, { limit: 1 });
  const record = page.items[0];
  if (!record || record.id !== tokenId) throw new NotFoundError('token');
  return record;
}

export async function revokePersonalAccessToken(deps: Deps, principal: Principal, tokenId: string, sourceIp: string): Promise<void> {
  const record = await getOwnToken(deps, principal, tokenId);
  if (record.revoked_at) return; // revoking twice is harmless and says nothing new
  const audit = auditEventPut(deps, {
    log: 'identity', tenantId: principal.tenantId, workspaceId: record.workspace_id, actorId: principal.userId,
    action: 'token_revoked', targetType: 'personal_access_token', targetId: record.id, payload: { name: record.name }, sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.personalAccessToken(record.token_hash),
        UpdateExpression: 'SET revoked_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND revoked_at = :null',
        ExpressionAttributeValues: { ':now': isoNow(deps.clock), ':null': null },
      }),
      rosterChangeItem(deps, principal, { remove: record.id }),
      audit.item,
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error; // revoked concurrently: the outcome is the same
  }
}

export async function rotatePersonalAccessToken(deps: Deps, principal: Principal, tokenId: string, sourceIp: string): Promise<CreatedPersonalAccessToken> {
  const old = await getOwnToken(deps, principal, tokenId);
  if (old.revoked_at || Date.parse(old.expires_at) <= deps.clock.now().getTime()) throw new NotFoundError('token');
  // The new token keeps the old one's workspace, name, scopes and expiry: rotating replaces a
  // secret, it never extends how long access lasts.
  const owner: Principal = { ...principal, workspaceId: old.workspace_id };
  const { token, record, item } = newTokenRecord(deps, owner, { name: old.name, scopes: old.scopes, expiresAt: () => new Date(old.expires_at) });
  const audit = auditEventPut(deps, {
    log: 'identity', tenantId: principal.tenantId, workspaceId: old.workspace_id, actorId: principal.userId,
    action: 'token_rotated', targetType: 'personal_access_token', targetId: record.id, payload: { replaces: old.id, name: old.name }, sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.personalAccessToken(old.token_hash),
        UpdateExpression: 'SET revoked_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND revoked_at = :null',
        ExpressionAttributeValues: { ':now': record.created_at, ':null': null },
      }),
      deps.table.putItem(item, { expression: 'attribute_not_exists(PK)' }),
      rosterChangeItem(deps, principal, { remove: old.id, add: record }),
      audit.item,
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('token'); // rotated or revoked concurrently
    throw error;
  }
  return { ...toTokenView(record), token };
}

export async function findUsablePersonalAccessToken(deps: Deps, token: string): Promise<PersonalAccessTokenRecord> {
  if (!hasTokenShape('pat', token)) throw new UnauthenticatedError('The personal access token is not valid');
  const record = await deps.table.get<PersonalAccessTokenRecord>(keys.personalAccessToken(sha256Hex(token)));
  if (!record) throw new UnauthenticatedError('The personal access token is not valid');
  if (record.revoked_at) throw new UnauthenticatedError('The personal access token has been revoked');
  if (Date.parse(record.expires_at) <= deps.clock.now().getTime()) throw new UnauthenticatedError('The personal access token has expired');
  return record;
}

export async function markPersonalAccessTokenUsed(deps: Deps, record: PersonalAccessTokenRecord, sourceIp: string | null = null): Promise<void> {
  const now = deps.clock.now();
  if (record.use_audited_at === undefined || now.getTime() - Date.parse(record.use_audited_at) >= USE_AUDIT_INTERVAL_MS) {
    await auditPersonalAccessTokenUse(deps, record, now, sourceIp);
    return;
  }
  if (record.last_used_at && now.getTime() - Date.parse(record.last_used_at) < LAST_USED_RESOLUTION_MS) return;
  const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
  await deps.table
    .update({
      Key: keys.personalAccessToken(record.token_hash),
      UpdateExpression: 'SET last_used_at = :now',
      // Parallel requests race here; only one of them writes.
      ConditionExpression: 'attribute_exists(PK) AND (last_used_at = :null OR last_used_at < :threshold)',
      ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null, ':threshold': threshold },
    })
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/** The first use in an hour: last_used_at, use_audited_at and a token_used event in one transaction; parallel requests race, one writes. */
async function auditPersonalAccessTokenUse(deps: Deps, record: PersonalAccessTokenRecord, now: Date, sourceIp: string | null): Promise<void> {
  const threshold = new Date(now.getTime() - USE_AUDIT_INTERVAL_MS).toISOString();
  const event = auditEventPut(deps, {
    log: 'identity', tenantId: record.tenant_id, workspaceId: record.workspace_id, actorId: record.user_id,
    action: 'token_used', targetType: 'personal_access_token', targetId: record.id, payload: { kind: 'pat', name: record.name }, sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.personalAccessToken(record.token_hash),
        UpdateExpression: 'SET last_used_at = :now, use_audited_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(use_audited_at) OR use_audited_at < :threshold)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':threshold': threshold },
      }),
      event.item,
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
