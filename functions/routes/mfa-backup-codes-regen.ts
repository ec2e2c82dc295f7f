import { defineRoute, problem } from '../../shared/http/route';
import { BackupCodesResponseSchema } from '../../shared/identity/mfa-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/mfa/backup-codes/regen', handler: 'mfa-backup-codes-regen', auth: 'bearer', sessionOnly: true, ipRateLimited: true, tag: 'mfa',
  summary: 'Replace your backup codes (needs an MFA within the last 10 minutes); the old ones stop working',
  responses: { 200: { description: 'The new backup codes, shown only here', schema: BackupCodesResponseSchema }, 401: problem('mfa_required') },
});
