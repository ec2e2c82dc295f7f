import { defineRoute } from '../../shared/http/route';
import { MeSchema } from '../../shared/identity/user-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/me', handler: 'me-get', auth: 'bearer', tag: 'users',
  summary: 'The current user in the credential\'s workspace',
  responses: { 200: { description: 'Current user', schema: MeSchema } },
});
