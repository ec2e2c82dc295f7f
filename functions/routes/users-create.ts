import { defineRoute, problem } from '../../shared/http/route';
import { CreateUserBodySchema, UserSchema } from '../../shared/identity/user-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/users', handler: 'users-create', auth: 'bearer', sessionOnly: { body: ['password', { name: 'tenant_admin', value: true }] }, permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
  summary: 'Create a user with a role in a workspace',
  request: { body: CreateUserBodySchema },
  responses: { 201: { description: 'Created', schema: UserSchema }, 409: problem('conflict') },
});
