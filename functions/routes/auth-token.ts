import { defineRoute, problem } from '../../shared/http/route';
import { TokenGrantBodySchema, TokenResponseSchema } from '../../shared/identity/auth-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/auth/token', handler: 'auth-token', auth: 'public', ipRateLimited: true, tag: 'authentication',
  summary: 'Exchange a refresh token (rotating it) or an SSO code for tokens',
  request: { body: TokenGrantBodySchema },
  responses: { 200: { description: 'Tokens', schema: TokenResponseSchema }, 401: problem('unauthenticated') },
});
