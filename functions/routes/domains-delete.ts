import { defineRoute, problem } from '../../shared/http/route';
import { EmailDomainPathSchema } from '../../shared/identity/email-domain-schemas';

export const route = defineRoute({
  method: 'DELETE', path: '/v1/tenants/{id}/domains/{domain}', handler: 'domains-delete', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
  summary: 'Remove an email domain: it stops routing at once',
  request: { params: EmailDomainPathSchema },
  responses: { 204: { description: 'Removed' }, 404: problem('not_found') },
});
