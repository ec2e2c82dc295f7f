import { RelationshipListQuerySchema, RelationshipListSchema } from '../../shared/connections/inventory-schemas';
import { ConnectionPathSchema } from '../../shared/connections/schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/connections/{id}/relationships', handler: 'connection-relationships-list', auth: 'bearer', permission: 'connections:read', tag: 'inventory',
  summary: 'The discovered relationships of a connection, optionally of one kind or touching one entity',
  request: { params: ConnectionPathSchema, query: RelationshipListQuerySchema },
  responses: { 200: { description: 'Relationships', schema: RelationshipListSchema }, 404: problem('not_found') },
});
