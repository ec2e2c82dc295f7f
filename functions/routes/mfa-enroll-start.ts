import { defineRoute } from '../../shared/http/route';
import { MfaEnrollStartBodySchema, MfaEnrollStartResponseSchema } from '../../shared/identity/mfa-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/mfa/enroll/start', handler: 'mfa-enroll-start', auth: 'bearer_or_mfa_token', sessionOnly: true, ipRateLimited: true, tag: 'mfa',
  summary: 'Begin TOTP enrollment (secret, otpauth URI, QR code)',
  request: { body: MfaEnrollStartBodySchema },
  responses: { 200: { description: 'Enrollment material', schema: MfaEnrollStartResponseSchema } },
});
