import { IdPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { UpdateUserBodySchema, UserSchema } from '../../shared/identity/user-schemas';

export const route = defineRoute({
  method: 'PATCH', path: '/v1/users/{id}', handler: 'users-update', auth: 'bearer', sessionOnly: { body: ['email', 'tenant_admin'] }, permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
  summary: 'Change a user\'s email, role in a workspace, or tenant administration',
  request: { params: IdPathSchema('usr'), body: UpdateUserBodySchema },
  responses: { 200: { description: 'User', schema: UserSchema }, 404: problem('not_found'), 409: problem('conflict') },
});
