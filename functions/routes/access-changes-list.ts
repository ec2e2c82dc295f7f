import { AccessChangeListSchema, AccessChangesQuerySchema } from '../../shared/access/access-schemas';
import { defineRoute } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/access-changes', handler: 'access-changes-list', auth: 'bearer', permission: 'connections:read', tag: 'access',
  summary: 'Who gained or lost what, when, newest first (kept at least 400 days)',
  request: { query: AccessChangesQuerySchema },
  responses: { 200: { description: 'Access changes', schema: AccessChangeListSchema } },
});
