import { RunSchema } from '../../shared/connections/run-schemas';
import { ConnectionPathSchema } from '../../shared/connections/schemas';
import { responseHeaders } from '../../shared/http/headers';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'POST', path: '/v1/connections/{id}/runs', handler: 'connection-runs-create', auth: 'bearer', permission: 'connections:run', tag: 'runs',
  summary: 'Start a discovery run now; 409 while another run of the connection is queued or running',
  request: { params: ConnectionPathSchema },
  responses: {
    202: { description: 'Queued; Location is the run\'s URL', schema: RunSchema, headers: { Location: responseHeaders.createdLocation } },
    404: problem('not_found'),
    409: problem('conflict: a run of this connection is already queued or running (the detail names it)'),
  },
});
