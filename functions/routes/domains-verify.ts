import { defineRoute, problem } from '../../shared/http/route';
import { EmailDomainPathSchema, EmailDomainSchema } from '../../shared/identity/email-domain-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/tenants/{id}/domains/{domain}/verify', handler: 'domains-verify', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
  summary: 'Check the domain\'s TXT record now: verified when it holds the value',
  request: { params: EmailDomainPathSchema },
  responses: {
    200: { description: 'Verified', schema: EmailDomainSchema },
    404: problem('not_found'),
    409: problem('conflict: the record does not hold the value (the detail says what was found), or another tenant verified the domain'),
    503: problem('unavailable: DNS did not answer; nothing changed'),
  },
});
