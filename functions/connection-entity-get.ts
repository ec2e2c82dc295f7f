import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { getEntityDetail } from '../shared/runs/inventory-views';
import { route } from './routes/connection-entity-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => ok(await getEntityDetail(deps, scopeOf(principal), input.params.id, input.params.entity_id)));
