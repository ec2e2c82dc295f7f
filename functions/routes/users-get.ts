import { IdPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { UserSchema } from '../../shared/identity/user-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/users/{id}', handler: 'users-get', auth: 'bearer', permission: 'users:read', tag: 'users',
  summary: 'Read a user',
  request: { params: IdPathSchema('usr') },
  responses: { 200: { description: 'User', schema: UserSchema }, 404: problem('not_found') },
});
