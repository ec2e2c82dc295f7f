import { ConnectionListQuerySchema, ConnectionListSchema } from '../../shared/connections/schemas';
import { defineRoute } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections', handler: 'connections-list', auth: 'bearer', permission: 'connections:read', tag: 'connections',
  summary: 'Connections of your workspace, newest first',
  request: { query: ConnectionListQuerySchema },
  responses: { 200: { description: 'Connections', schema: ConnectionListSchema } },
});
