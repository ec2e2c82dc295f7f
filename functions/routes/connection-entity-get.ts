import { EntityDetailSchema, EntityPathSchema } from '../../shared/connections/inventory-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/entities/{entity_id}', handler: 'connection-entity-get', auth: 'bearer', permission: 'connections:read', tag: 'inventory',
  summary: 'One discovered entity, with its first 100 relationships each way (the other end named) and how many there are',
  request: { params: EntityPathSchema },
  responses: { 200: { description: 'The entity', schema: EntityDetailSchema }, 404: problem('not_found') },
});
