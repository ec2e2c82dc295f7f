import { IdPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'POST', path: '/v1/users/{id}/mfa/reset', handler: 'users-mfa-reset', auth: 'bearer', permission: 'users:manage', sessionOnly: true, mfaAction: 'MANAGE_USERS', tag: 'users',
  summary: "Reset a user's MFA: the authenticator and backup codes are removed and every session of the user ends; the next sign-in enrolls anew",
  request: { params: IdPathSchema('usr') },
  responses: { 204: { description: "MFA reset; every session of the user ended" }, 404: problem('not_found') },
});
