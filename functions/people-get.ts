import { getPerson } from '../shared/access/people-views';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/people-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => ok(await getPerson(deps, scopeOf(principal), input.params.person_id)));
