import { defineRoute, problem } from '../../shared/http/route';
import { LoginBodySchema, LoginResponseSchema } from '../../shared/identity/auth-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/auth/login', handler: 'auth-login', auth: 'public', ipRateLimited: true, tag: 'authentication',
  summary: 'Local login with email and password',
  request: { body: LoginBodySchema },
  responses: { 200: { description: 'Tokens, or an MFA step to complete', schema: LoginResponseSchema }, 401: problem('invalid_credentials'), 429: problem('rate_limited') },
});
