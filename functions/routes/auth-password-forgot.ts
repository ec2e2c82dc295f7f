import { defineRoute, problem } from '../../shared/http/route';
import { PasswordForgotBodySchema } from '../../shared/identity/auth-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/auth/password/forgot', handler: 'auth-password-forgot', auth: 'public', ipRateLimited: true, tag: 'authentication',
  summary: 'Email a password reset link (answers 202 whether or not the account exists)',
  request: { body: PasswordForgotBodySchema },
  responses: { 202: { description: 'Accepted; when the account exists, a reset link is on its way' }, 429: problem('rate_limited') },
});
