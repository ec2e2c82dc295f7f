import { PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute } from '../../shared/http/route';
import { WorkspaceListSchema } from '../../shared/identity/workspace-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/workspaces', handler: 'workspaces-list', auth: 'bearer', tag: 'workspaces',
  summary: 'Workspaces you belong to (all of them for a tenant admin)',
  request: { query: PageQuerySchema },
  responses: { 200: { description: 'Workspaces', schema: WorkspaceListSchema } },
});
