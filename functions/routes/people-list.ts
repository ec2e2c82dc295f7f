import { PeopleListQuerySchema, PeopleListSchema } from '../../shared/access/access-schemas';
import { defineRoute } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/people', handler: 'people-list', auth: 'bearer', permission: 'connections:read', tag: 'access',
  summary: 'The people of the workspace across all its connections, by display name; `q` searches name and email prefixes',
  request: { query: PeopleListQuerySchema },
  responses: { 200: { description: 'People', schema: PeopleListSchema } },
});
