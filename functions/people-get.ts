import { getPerson, personRead } from '../shared/access/people-views';
import { readEndpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/people-get';

export const handler = readEndpoint(route, ({ caller, params }) => personRead(caller, params.person_id), async ({ principal, deps, resource }) => ok(await getPerson(deps, scopeOf(principal), resource)));
