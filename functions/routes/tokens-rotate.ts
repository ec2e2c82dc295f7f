import { IdPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { CreatedTokenSchema } from '../../shared/identity/personal-access-token-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/tokens/{id}/rotate', handler: 'tokens-rotate', auth: 'bearer', sessionOnly: true, permission: 'tokens:manage', mfaAction: 'ROTATE_PAT', tag: 'tokens',
  summary: 'Replace a personal access token by a new one; the old one is revoked at once',
  request: { params: IdPathSchema('tok') },
  responses: { 201: { description: 'The new token', schema: CreatedTokenSchema }, 404: problem('not_found') },
});
