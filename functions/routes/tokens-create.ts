import { defineRoute, problem } from '../../shared/http/route';
import { CreatedTokenSchema, CreateTokenBodySchema } from '../../shared/identity/personal-access-token-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/tokens', handler: 'tokens-create', auth: 'bearer', sessionOnly: true, permission: 'tokens:manage', mfaAction: 'CREATE_PAT', tag: 'tokens',
  summary: 'Create a personal access token; the token is shown only in this answer',
  request: { body: CreateTokenBodySchema },
  responses: {
    201: { description: 'Created', schema: CreatedTokenSchema },
    409: problem('limit_exceeded: you have 50 active tokens (revoked and expired ones do not count); or conflict: your tokens changed meanwhile, try again'),
  },
});
