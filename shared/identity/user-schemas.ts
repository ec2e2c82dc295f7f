/** Request and response schemas of the user endpoints (`/v1/me`, `/v1/users`) and the permission registry. */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../schemas/field-schemas';
import { Email, NewPassword, RoleSchema, Username } from './schemas';

export const PermissionListSchema = z.object({ permissions: z.array(z.object({ name: z.string(), description: z.string() })) });

export const MeSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    email: z.string(),
    status: z.enum(['active', 'disabled']),
    workspace_id: z.string(),
    role: z.nullable(RoleSchema),
    tenant_admin: z.boolean(),
    permissions: z.array(z.string()),
    mfa_enrolled: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'Me' });

export const UserSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    email: z.string(),
    username: z.nullable(z.string()),
    status: z.enum(['active', 'disabled']),
    workspace_id: z.nullable(z.string()),
    role: z.nullable(RoleSchema),
    tenant_admin: z.boolean(),
    memberships: z.array(z.object({ workspace_id: z.string(), role: RoleSchema })),
    mfa_enrolled: z.boolean(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'User' });

export const CreateUserBodySchema = z.strictObject({
  email: Email,
  username: z.optional(Username),
  password: z.optional(NewPassword),
  role: RoleSchema,
  workspace_id: z.optional(idOf('ws')),
  tenant_admin: z._default(z.boolean(), false),
});

export const UpdateUserBodySchema = z
  .strictObject({
    email: z.optional(Email),
    /** `null` removes the username. */
    username: z.optional(z.nullable(Username)),
    role: z.optional(RoleSchema),
    workspace_id: z.optional(idOf('ws')),
    tenant_admin: z.optional(z.boolean()),
  })
  .check(z.refine((b) => b.email !== undefined || b.username !== undefined || b.role !== undefined || b.tenant_admin !== undefined, {
    message: 'give at least one of email, username, role, tenant_admin',
    path: [],
  }));

export const UserListSchema = z.object({ users: z.array(UserSchema), next_cursor: z.nullable(z.string()) });
