import { readEndpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { describeMe, ownUserRead } from '../shared/identity/me';
import { route } from './routes/me-get';

export const handler = readEndpoint(route, ({ caller }) => ownUserRead(caller), ({ principal, resource }) => ok(describeMe(principal, resource)));
