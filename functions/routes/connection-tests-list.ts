import { ConnectionPathSchema, ConnectionTestListSchema } from '../../shared/connections/schemas';
import { PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/tests', handler: 'connection-tests-list', auth: 'bearer', permission: 'connections:read', tag: 'connections',
  summary: 'Test history of a connection, newest first',
  request: { params: ConnectionPathSchema, query: PageQuerySchema },
  responses: { 200: { description: 'Tests', schema: ConnectionTestListSchema }, 404: problem('not_found') },
});
