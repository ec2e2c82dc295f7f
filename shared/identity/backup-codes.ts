/**
 * Backup codes: ten per user, high-entropy (10 characters of a 30-letter alphabet, ~49 bits),
 * shown once and stored as salted SHA-256 digests. Each is single-use by a conditional write on
 * `used_at`, so two parallel redemptions of one code cannot both win. Regeneration replaces
 * the whole set in one transaction.
 */
import { randomBytes } from 'node:crypto';
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { sha256Hex } from '../crypto/opaque-tokens';
import { getUser } from '../store/identity-items';
import { keys } from '../store/keys';
import type { BackupCodeRecord, UserRecord } from '../store/records';
import type { TransactItem } from '../store/table-client';
import { assertRecentMfa } from './mfa-policy';
import type { Principal } from './principal';

const BACKUP_CODE_COUNT = 10;
const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i look-alikes
function normalizeBackupCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const backupCodeHash = (user: UserRecord, code: string) => sha256Hex(`${user.tenant_id}:${user.id}:${normalizeBackupCode(code)}`);

function generateBackupCode(): string {
  const bytes = randomBytes(10);
  let out = '';
  for (const b of bytes) out += BACKUP_ALPHABET[b % BACKUP_ALPHABET.length];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** Ten new codes replacing every existing one, as transaction items. */
export async function backupCodeItems(deps: Deps, user: UserRecord): Promise<{ codes: string[]; items: TransactItem[] }> {
  const existing = await deps.table.queryPrefix<BackupCodeRecord>(keys.backupCodes(user.tenant_id, user.id), { limit: 100 });
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, generateBackupCode);
  const now = isoNow(deps.clock);
  const items = [
    ...existing.items.map((old) => deps.table.deleteItem({ Key: keys.backupCode(user.tenant_id, user.id, old.code_hash) })),
    ...codes.map((code) => {
      const record: BackupCodeRecord = { id: deps.ids.next('mfa'), user_id: user.id, code_hash: backupCodeHash(user, code), used_at: null, created_at: now };
      return deps.table.putItem({ ...keys.backupCode(user.tenant_id, user.id, record.code_hash), ...record });
    }),
  ];
  return { codes, items };
}

/** The conditional write that uses a backup code, or undefined when the code is not a live one. */
export async function acceptBackupCode(deps: Deps, user: UserRecord, code: string): Promise<TransactItem | undefined> {
  const hash = backupCodeHash(user, code);
  const record = await deps.table.get<BackupCodeRecord>(keys.backupCode(user.tenant_id, user.id, hash));
  if (!record || record.used_at) return undefined;
  return deps.table.updateItem({
    Key: keys.backupCode(user.tenant_id, user.id, hash),
    UpdateExpression: 'SET used_at = :now',
    ConditionExpression: 'attribute_exists(PK) AND used_at = :null',
    ExpressionAttributeValues: { ':now': isoNow(deps.clock), ':null': null },
  });
}

/** Replaces the backup codes; always needs a recent MFA, whatever the tenant policy lists. */
export async function regenerateBackupCodes(deps: Deps, principal: Principal, sourceIp: string): Promise<{ backup_codes: string[] }> {
  assertRecentMfa(deps, principal);
  const user = await getUser(deps, principal.tenantId, principal.userId);
  if (!user?.mfa_enrolled) throw new ConflictError('Enroll TOTP first');
  const backup = await backupCodeItems(deps, user);
  const event = auditEventPut(deps, { log: 'identity', tenantId: user.tenant_id, workspaceId: principal.workspaceId, actorId: user.id, action: 'mfa_backup_codes_regenerated', targetType: 'user', targetId: user.id, payload: { count: backup.codes.length }, sourceIp });
  await deps.table.transact([...backup.items, event.item]);
  return { backup_codes: backup.codes };
}
