import * as z from 'zod/mini';
import { defineRoute, problem } from '../../shared/http/route';
import { SsoTenantPathSchema } from '../../shared/identity/sso/sso-login-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/auth/sso/{tenant}/metadata', handler: 'sso-metadata', auth: 'public', tag: 'sso',
  summary: 'SAML service provider metadata of the tenant (entity id, assertion consumer service)',
  request: { params: SsoTenantPathSchema },
  responses: { 200: { description: 'SAML metadata', contentType: 'application/samlmetadata+xml', schema: z.string() }, 404: problem('not_found') },
});
