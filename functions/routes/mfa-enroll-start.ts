import { defineRoute, problem } from '../../shared/http/route';
import { MfaEnrollStartBodySchema, MfaEnrollStartResponseSchema } from '../../shared/identity/mfa-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/mfa/enroll/start', handler: 'mfa-enroll-start', auth: 'bearer_or_mfa_token', sessionOnly: true, ipRateLimited: true, tag: 'mfa',
  summary: 'Begin TOTP enrollment (secret, otpauth URI, QR code); from a session, with the current password (an SSO user: a sign-in at the IdP in the last 10 minutes)',
  request: { body: MfaEnrollStartBodySchema },
  responses: {
    200: { description: 'Enrollment material', schema: MfaEnrollStartResponseSchema },
    400: problem('validation_failed: from a session, a user with a password gives current_password'),
    401: problem('invalid_credentials: the current password is wrong; mfa_required: an SSO user signed in at the IdP more than 10 minutes ago'),
    409: problem('conflict: TOTP is already enrolled'),
  },
});
