import { defineRoute } from '../../shared/http/route';
import { LogoutBodySchema } from '../../shared/identity/auth-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/auth/logout', handler: 'auth-logout', auth: 'public', ipRateLimited: true, tag: 'authentication',
  summary: 'End a session: its refresh token family and the access tokens it holds',
  request: { body: LogoutBodySchema },
  responses: { 204: { description: 'Logged out' } },
});
