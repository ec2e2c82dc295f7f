import { defineRoute } from '../../shared/http/route';
import { PermissionListSchema } from '../../shared/identity/user-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/permissions', handler: 'permissions-list', auth: 'bearer', tag: 'permissions',
  summary: 'The permission registry',
  responses: { 200: { description: 'Permissions', schema: PermissionListSchema } },
});
