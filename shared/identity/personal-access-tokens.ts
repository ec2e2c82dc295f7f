/**
 * Personal access tokens: opaque (`tsr_pat_…` with a checksum), stored as a SHA-256 digest,
 * shown once. A PAT acts in the workspace it was created in, with scopes ⊆ its creator's
 * permissions there. Rotation revokes the old token in the same transaction that creates the new.
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../errors';
import { generateOpaqueToken, hasTokenShape, sha256Hex } from '../crypto/opaque-tokens';
import { auditEventPut } from '../audit/audit-log';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { PersonalAccessTokenRecord } from '../store/records';
import type { Page, PageRequest } from '../store/table-client';
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
  await deps.table.transact([deps.table.putItem(item, { expression: 'attribute_not_exists(PK)' }), audit.item]);
  return { ...toTokenView(record), token };
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
