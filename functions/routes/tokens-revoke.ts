import { IdPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'DELETE', path: '/v1/tokens/{id}', handler: 'tokens-revoke', auth: 'bearer', permission: 'tokens:manage', mfaAction: 'REVOKE_PAT', tag: 'tokens',
  summary: 'Revoke a personal access token',
  request: { params: IdPathSchema('tok') },
  responses: { 204: { description: 'Revoked' }, 404: problem('not_found') },
});
