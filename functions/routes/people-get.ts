import { PersonDetailSchema, PersonPathSchema } from '../../shared/access/access-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/people/{person_id}', handler: 'people-get', auth: 'bearer', permission: 'connections:read', tag: 'access',
  summary: 'A person and their accounts in every connection',
  request: { params: PersonPathSchema },
  responses: { 200: { description: 'The person', schema: PersonDetailSchema }, 404: problem('not_found') },
});
