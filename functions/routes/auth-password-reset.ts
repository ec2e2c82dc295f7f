import { defineRoute, problem } from '../../shared/http/route';
import { PasswordResetBodySchema } from '../../shared/identity/auth-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/auth/password/reset', handler: 'auth-password-reset', auth: 'public', ipRateLimited: true, tag: 'authentication',
  summary: 'Set a new password with the token of a reset link; every refresh token of the user is revoked',
  request: { body: PasswordResetBodySchema },
  responses: { 204: { description: 'Password set' }, 400: problem('validation_failed'), 401: problem('unauthenticated: the link is not valid, used or expired') },
});
