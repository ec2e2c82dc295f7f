import { EntityListQuerySchema, EntityListSchema } from '../../shared/connections/inventory-schemas';
import { ConnectionPathSchema } from '../../shared/connections/schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/entities', handler: 'connection-entities-list', auth: 'bearer', permission: 'connections:read', tag: 'inventory',
  summary: 'The discovered entities of a connection, optionally of one kind, or those whose name or source id starts with q',
  request: { params: ConnectionPathSchema, query: EntityListQuerySchema },
  responses: { 200: { description: 'Entities', schema: EntityListSchema }, 404: problem('not_found') },
});
