import { PersonAccessListSchema, PersonAccessQuerySchema, PersonPathSchema } from '../../shared/access/access-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/people/{person_id}/access', handler: 'person-access-list', auth: 'bearer', permission: 'connections:read', tag: 'access',
  summary: 'Every entitlement and resource a person reaches, each with the paths from their accounts, hop by hop',
  request: { params: PersonPathSchema, query: PersonAccessQuerySchema },
  responses: { 200: { description: 'What the person reaches', schema: PersonAccessListSchema }, 404: problem('not_found') },
});
