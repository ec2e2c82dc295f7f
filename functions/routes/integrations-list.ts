import { IntegrationListSchema } from '../../shared/connections/integration-schemas';
import { defineRoute } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/integrations', handler: 'integrations-list', auth: 'bearer', permission: 'integrations:read', tag: 'catalog',
  summary: 'The catalog of discovery integrations, with their configuration and scope schemas',
  responses: { 200: { description: 'Integrations', schema: IntegrationListSchema } },
});
