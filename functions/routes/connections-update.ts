import { ConnectionPathSchema, ConnectionSchema, UpdateConnectionBodySchema } from '../../shared/connections/schemas';
import { requestHeaders } from '../../shared/http/headers';
import { defineRoute, problem, versioned } from '../../shared/http/route';

export const route = defineRoute({
  method: 'PATCH', path: '/v1/connections/{id}', handler: 'connections-update', auth: 'bearer', permission: 'connections:write', tag: 'connections',
  summary: 'Change a connection; omitting configuration keeps it; If-Match honoured',
  request: { params: ConnectionPathSchema, body: UpdateConnectionBodySchema, headers: { 'If-Match': requestHeaders.ifMatch } },
  responses: { 200: { description: 'Connection', schema: ConnectionSchema, headers: versioned }, 404: problem('not_found'), 412: problem('precondition_failed: If-Match names a version that is no longer current'), 422: problem('unprocessable: scope or configuration do not fit the integration') },
});
