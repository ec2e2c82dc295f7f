import { defineRoute, problem } from '../../shared/http/route';
import { TokenResponseSchema } from '../../shared/identity/auth-schemas';
import { MfaChallengeBodySchema } from '../../shared/identity/mfa-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/mfa/challenge', handler: 'mfa-challenge', auth: 'bearer_or_mfa_token', ipRateLimited: true, tag: 'mfa',
  summary: 'Answer an MFA challenge: completes a login (mfa_token) or steps up an access token',
  request: { body: MfaChallengeBodySchema },
  responses: { 200: { description: 'Tokens', schema: TokenResponseSchema }, 401: problem('invalid_credentials') },
});
