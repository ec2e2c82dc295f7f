import { ConnectionPathSchema, ConnectionTestResultSchema } from '../../shared/connections/schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'POST', path: '/v1/connections/{id}/test', handler: 'connections-test', auth: 'bearer', permission: 'connections:test', tag: 'connections',
  summary: 'Test a connection against its provider now',
  request: { params: ConnectionPathSchema },
  responses: { 200: { description: 'Test result', schema: ConnectionTestResultSchema }, 404: problem('not_found') },
});
