import { connectionRead, etagOf, toConnectionView } from '../shared/connections/connection-records';
import { readEndpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/connections-get';

export const handler = readEndpoint(route, ({ caller, params }) => connectionRead(caller, params.id), ({ resource }) => ok(toConnectionView(resource), { etag: etagOf(resource) }));
