import { readEndpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { toUserView } from '../shared/identity/user-views';
import { userInTenantRead } from '../shared/identity/users';
import { route } from './routes/users-get';

export const handler = readEndpoint(route, ({ caller, params }) => userInTenantRead(caller, params.id), ({ principal, resource }) => ok(toUserView(resource, principal.workspaceId)));
