import { JwksSchema } from '../../shared/identity/schemas';
import { defineRoute } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/.well-known/jwks.json', handler: 'jwks', auth: 'public', tag: 'service',
  summary: 'Public keys that verify access tokens',
  responses: { 200: { description: 'JSON Web Key Set', schema: JwksSchema } },
});
