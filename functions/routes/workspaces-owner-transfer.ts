import { IdPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { OwnerTransferBodySchema, WorkspaceSchema } from '../../shared/identity/workspace-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/workspaces/{id}/owner-transfer', handler: 'workspaces-owner-transfer', auth: 'bearer', permission: 'workspaces:manage', tag: 'workspaces',
  summary: 'Transfer a workspace to another active user of the tenant (audited)',
  request: { params: IdPathSchema('ws'), body: OwnerTransferBodySchema },
  responses: { 200: { description: 'Workspace', schema: WorkspaceSchema }, 404: problem('not_found') },
});
