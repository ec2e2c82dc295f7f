/**
 * `POST /v1/users/{id}/mfa/reset`: a tenant admin removes a user's authenticator and backup
 * codes, for a user who lost their device, or whose first authenticator someone else bound.
 * Every session of the user ends as a password reset ends them (sign-ins before now are refused,
 * refresh families revoked), so whoever held the old factor or a session keeps nothing; the
 * user's next sign-in enrolls anew where the policy asks for MFA. Personal access tokens stay:
 * they never carried an MFA.
 */
import { epochSeconds, isoNow } from '../clock';
import type { Deps } from '../deps';
import { NotFoundError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { BackupCodeRecord } from '../store/records';
import type { Principal } from './principal';
import { revokeAllSessions } from './sessions';
import { userInTenantRead } from './users';

export async function resetUserMfa(deps: Deps, principal: Principal, userId: string, sourceIp: string): Promise<void> {
  const user = await deps.table.read(userInTenantRead(principal, userId));
  const backupCodes = await deps.table.queryPrefix<BackupCodeRecord>(keys.backupCodes(user.tenant_id, user.id), { limit: 100 });
  const totp = await deps.table.get(keys.totpCredential(user.tenant_id, user.id));
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.user(user.tenant_id, user.id),
        UpdateExpression: 'SET mfa_enrolled = :false, sessions_valid_after = :epoch, updated_at = :now, version = version + :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':false': false, ':epoch': epochSeconds(deps.clock), ':now': isoNow(deps.clock), ':one': 1 },
      }),
      ...(totp ? [deps.table.deleteItem({ Key: keys.totpCredential(user.tenant_id, user.id) })] : []),
      ...backupCodes.items.map((code) => deps.table.deleteItem({ Key: keys.backupCode(user.tenant_id, user.id, code.code_hash) })),
      auditEventPut(deps, {
        log: 'identity', tenantId: principal.tenantId, workspaceId: principal.workspaceId, actorId: principal.userId, action: 'mfa_reset', targetType: 'user', targetId: user.id,
        payload: { email: user.email, was_enrolled: user.mfa_enrolled, backup_codes_removed: backupCodes.items.length, sessions_ended: true }, sourceIp,
      }).item,
    ]);
  } catch (error) {
    // Deleted meanwhile.
    if (isConditionFailure(error)) throw new NotFoundError('user');
    throw error;
  }
  await revokeAllSessions(deps, user.tenant_id, user.id, 'mfa_reset');
}
