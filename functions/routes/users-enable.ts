import { IdPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { UserSchema } from '../../shared/identity/user-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/users/{id}/enable', handler: 'users-enable', auth: 'bearer', permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
  summary: 'Enable a disabled user again; the user signs in anew (tokens from before stay refused)',
  request: { params: IdPathSchema('usr') },
  responses: { 200: { description: 'User', schema: UserSchema }, 404: problem('not_found') },
});
