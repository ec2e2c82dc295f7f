import { PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute } from '../../shared/http/route';
import { UserListSchema } from '../../shared/identity/user-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/users', handler: 'users-list', auth: 'bearer', permission: 'users:read', tag: 'users',
  summary: 'List users of the tenant',
  request: { query: PageQuerySchema },
  responses: { 200: { description: 'Users', schema: UserListSchema } },
});
