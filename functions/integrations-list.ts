import { listIntegrations } from '../shared/connections/catalog-views';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { routes } from './routes';

export const handler = endpoint(routes.integrationsList, async ({ principal, deps }) => ok({ integrations: await listIntegrations(deps, principal.tenantId, principal.permissions) }));
