import { listIntegrations } from '../shared/connections/catalog-views';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/integrations-list';

export const handler = endpoint(route, async ({ principal, deps }) => ok({ integrations: await listIntegrations(deps, principal.tenantId, principal.permissions) }));
