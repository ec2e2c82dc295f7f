import { ConnectionRunListSchema } from '../../shared/connections/run-schemas';
import { ConnectionPathSchema } from '../../shared/connections/schemas';
import { PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/runs', handler: 'connection-runs-list', auth: 'bearer', permission: 'connections:read', tag: 'runs',
  summary: 'Discovery run history of a connection, newest first',
  request: { params: ConnectionPathSchema, query: PageQuerySchema },
  responses: { 200: { description: 'Runs', schema: ConnectionRunListSchema }, 404: problem('not_found') },
});
