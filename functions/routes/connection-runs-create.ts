import { RunSchema, StartRunBodySchema } from '../../shared/connections/run-schemas';
import { ConnectionPathSchema } from '../../shared/connections/schemas';
import { responseHeaders } from '../../shared/http/headers';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'POST', path: '/v1/connections/{id}/runs', handler: 'connection-runs-create', auth: 'bearer', permission: 'connections:run', tag: 'runs',
  summary: 'Start a discovery run now; 409 while another run of the connection is queued or running. The body is optional; `confirm_removals: true` accepts the drops the mass-removal guard held back',
  request: { params: ConnectionPathSchema, body: StartRunBodySchema },
  responses: {
    202: { description: 'Queued; Location is the run\'s URL', schema: RunSchema, headers: { Location: responseHeaders.createdLocation } },
    400: problem('validation_failed: an unknown field or a value that is not a boolean'),
    404: problem('not_found'),
    409: problem('conflict: a run of this connection is already queued or running (the detail names it)'),
  },
});
