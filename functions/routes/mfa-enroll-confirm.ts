import { defineRoute } from '../../shared/http/route';
import { MfaEnrollConfirmBodySchema, MfaEnrollConfirmResponseSchema } from '../../shared/identity/mfa-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/mfa/enroll/confirm', handler: 'mfa-enroll-confirm', auth: 'bearer_or_mfa_token', sessionOnly: true, ipRateLimited: true, tag: 'mfa',
  summary: 'Confirm TOTP enrollment with a first code; returns backup codes (and tokens when it completes a login)',
  request: { body: MfaEnrollConfirmBodySchema },
  responses: { 200: { description: 'Backup codes', schema: MfaEnrollConfirmResponseSchema } },
});
