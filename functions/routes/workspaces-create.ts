import { defineRoute, problem } from '../../shared/http/route';
import { CreateWorkspaceBodySchema, WorkspaceSchema } from '../../shared/identity/workspace-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/workspaces', handler: 'workspaces-create', auth: 'bearer', permission: 'workspaces:manage', tag: 'workspaces',
  summary: 'Create a workspace owned by you',
  request: { body: CreateWorkspaceBodySchema },
  responses: { 201: { description: 'Created', schema: WorkspaceSchema }, 409: problem('limit_exceeded: the tenant has 1000 workspaces') },
});
