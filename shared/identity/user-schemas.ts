/** Request and response schemas of the user endpoints (`/v1/me`, `/v1/users`) and the permission registry. */
import * as z from 'zod';
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
    role: RoleSchema.nullable(),
    tenant_admin: z.boolean(),
    permissions: z.array(z.string()),
    mfa_enrolled: z.boolean(),
  })
  .meta({ id: 'Me' });

export const UserSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    email: z.string(),
    username: z.string().nullable(),
    status: z.enum(['active', 'disabled']),
    workspace_id: z.string().nullable(),
    role: RoleSchema.nullable(),
    tenant_admin: z.boolean(),
    memberships: z.array(z.object({ workspace_id: z.string(), role: RoleSchema })),
    mfa_enrolled: z.boolean(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'User' });

export const CreateUserBodySchema = z.strictObject({
  email: Email,
  username: Username.optional(),
  password: NewPassword.optional(),
  role: RoleSchema,
  workspace_id: idOf('ws').optional(),
  tenant_admin: z.boolean().default(false),
});

export const UpdateUserBodySchema = z
  .strictObject({
    email: Email.optional(),
    /** `null` removes the username. */
    username: Username.nullable().optional(),
    role: RoleSchema.optional(),
    workspace_id: idOf('ws').optional(),
    tenant_admin: z.boolean().optional(),
  })
  .refine((b) => b.email !== undefined || b.username !== undefined || b.role !== undefined || b.tenant_admin !== undefined, {
    message: 'give at least one of email, username, role, tenant_admin',
    path: [],
  });

export const UserListSchema = z.object({ users: z.array(UserSchema), next_cursor: z.string().nullable() });
