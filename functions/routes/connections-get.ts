import { ConnectionPathSchema, ConnectionSchema } from '../../shared/connections/schemas';
import { defineRoute, problem, versioned } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}', handler: 'connections-get', auth: 'bearer', permission: 'connections:read', tag: 'connections',
  summary: 'Read a connection (never its configuration); answers an ETag',
  request: { params: ConnectionPathSchema },
  responses: { 200: { description: 'Connection', schema: ConnectionSchema, headers: versioned }, 404: problem('not_found') },
});
