import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { AddEmailDomainBodySchema, EmailDomainSchema } from '../../shared/identity/email-domain-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/tenants/{id}/domains', handler: 'domains-create', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
  summary: 'Add an email domain: pending, with the DNS TXT record that proves control of it',
  request: { params: TenantPathSchema, body: AddEmailDomainBodySchema },
  responses: { 201: { description: 'Added (pending)', schema: EmailDomainSchema }, 403: problem('forbidden'), 409: problem('conflict: already added, or verified by another tenant') },
});
