import { defineRoute } from '../../shared/http/route';
import { JwksSchema } from '../../shared/identity/auth-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/.well-known/jwks.json', handler: 'jwks', auth: 'public', tag: 'service',
  summary: 'Public keys that verify access tokens',
  responses: { 200: { description: 'JSON Web Key Set', schema: JwksSchema } },
});
