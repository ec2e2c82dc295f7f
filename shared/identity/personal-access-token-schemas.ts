/** Request and response schemas of the personal access token endpoints. */
import * as z from 'zod/mini';
import { DisplayText, TimestampSchema } from '../schemas/field-schemas';

export const CreateTokenBodySchema = z.strictObject({
  name: DisplayText(128),
  scopes: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(32)),
  expires_in_days: z._default(z.number().check(z.int(), z.gte(1), z.lte(365)), 90),
});

export const PersonalAccessTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    workspace_id: z.string(),
    expires_at: TimestampSchema,
    created_at: TimestampSchema,
    last_used_at: z.nullable(TimestampSchema),
    revoked_at: z.nullable(TimestampSchema),
  })
  .register(z.globalRegistry, { id: 'PersonalAccessToken' });

export const CreatedTokenSchema = z.extend(PersonalAccessTokenSchema, { token: z.string() }).register(z.globalRegistry, { id: 'CreatedPersonalAccessToken' });

export const TokenListSchema = z.object({ tokens: z.array(PersonalAccessTokenSchema), next_cursor: z.nullable(z.string()) });
