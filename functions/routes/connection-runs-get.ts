import { RunPathSchema, RunSchema } from '../../shared/connections/run-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/runs/{run_id}', handler: 'connection-runs-get', auth: 'bearer', permission: 'connections:read', tag: 'runs',
  summary: 'One discovery run: status, counts, changes, errors and timings',
  request: { params: RunPathSchema },
  responses: { 200: { description: 'Run', schema: RunSchema }, 404: problem('not_found') },
});
