import { listConnections } from '../shared/connections/connection-records';
import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/connections-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const { integration_id, ...page } = input.query;
  const result = await listConnections(deps, scopeOf(principal), { ...page, integrationId: integration_id });
  return ok({ connections: result.items, next_cursor: result.nextCursor });
});
