import { defineRoute, problem } from '../../shared/http/route';
import { PasswordChangeBodySchema } from '../../shared/identity/auth-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/me/password', handler: 'me-password', auth: 'bearer', sessionOnly: true, mfaAction: 'CHANGE_PASSWORD', tag: 'users',
  summary: 'Change your password (needs the current one); every other session ends, personal access tokens stay',
  request: { body: PasswordChangeBodySchema },
  responses: { 204: { description: 'Password changed; every other session of the user ended' }, 401: problem('invalid_credentials or mfa_required') },
});
