import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { EmailDomainListSchema } from '../../shared/identity/email-domain-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/tenants/{id}/domains', handler: 'domains-list', auth: 'bearer', permission: 'idp:manage', tag: 'sso',
  summary: 'The email domains of your tenant and their verification status (tenant admins)',
  request: { params: TenantPathSchema },
  responses: { 200: { description: 'Email domains', schema: EmailDomainListSchema }, 403: problem('forbidden') },
});
