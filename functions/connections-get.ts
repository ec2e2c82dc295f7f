import { etagOf, getConnection, toConnectionView } from '../shared/connections/connection-records';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/connections-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => {
  const record = await getConnection(deps, scopeOf(principal), input.params.id);
  return ok(toConnectionView(record), { etag: etagOf(record) });
});
