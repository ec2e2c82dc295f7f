import { EntityAccessListSchema, EntityAccessPathSchema, EntityAccessQuerySchema } from '../../shared/access/access-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/entities/{entity_id}/access', handler: 'entity-access-list', auth: 'bearer', permission: 'connections:read', tag: 'access',
  summary: 'Who reaches an entity: one item per person and account, with the paths',
  request: { params: EntityAccessPathSchema, query: EntityAccessQuerySchema },
  responses: { 200: { description: 'Who reaches the entity', schema: EntityAccessListSchema }, 404: problem('not_found') },
});
