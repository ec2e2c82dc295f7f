import { ConnectionPathSchema } from '../../shared/connections/schemas';
import { requestHeaders } from '../../shared/http/headers';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'DELETE', path: '/v1/connections/{id}', handler: 'connections-delete', auth: 'bearer', permission: 'connections:write', tag: 'connections',
  summary: 'Delete a connection; If-Match honoured',
  request: { params: ConnectionPathSchema, headers: { 'If-Match': requestHeaders.ifMatch } },
  responses: { 204: { description: 'Deleted' }, 404: problem('not_found'), 412: problem('precondition_failed: If-Match names a version that is no longer current') },
});
