import { RunChangeListSchema, RunPathSchema } from '../../shared/connections/run-schemas';
import { PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/runs/{run_id}/changes', handler: 'connection-run-changes-list', auth: 'bearer', permission: 'connections:read', tag: 'runs',
  summary: 'What a run found different from the previous one (entities added, removed, changed; relationships added, removed)',
  request: { params: RunPathSchema, query: PageQuerySchema },
  responses: { 200: { description: 'Changes', schema: RunChangeListSchema }, 404: problem('not_found') },
});
