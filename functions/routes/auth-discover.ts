import { defineRoute, problem } from '../../shared/http/route';
import { DiscoverQuerySchema, DiscoverResponseSchema } from '../../shared/identity/sso/sso-login-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/auth/discover', handler: 'auth-discover', auth: 'public', ipRateLimited: true, tag: 'sso',
  summary: 'Which tenant an email belongs to and how its users sign in (email-domain routing)',
  request: { query: DiscoverQuerySchema },
  responses: { 200: { description: 'Login methods', schema: DiscoverResponseSchema }, 404: problem('not_found') },
});
