import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { permissionRegistry } from '../shared/identity/permissions';
import { route } from './routes/permissions-list';

const permissions = Object.entries(permissionRegistry).map(([name, description]) => ({ name, description }));

export const handler = endpoint(route, () => ok({ permissions }));
