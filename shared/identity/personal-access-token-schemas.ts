/** Request and response schemas of the personal access token endpoints. */
import * as z from 'zod';
import { DisplayText, TimestampSchema } from '../schemas/field-schemas';

export const CreateTokenBodySchema = z.strictObject({
  name: DisplayText(128),
  scopes: z.array(z.string().min(1).max(64)).min(1).max(32),
  expires_in_days: z.number().int().min(1).max(365).default(90),
});

export const PersonalAccessTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    workspace_id: z.string(),
    expires_at: TimestampSchema,
    created_at: TimestampSchema,
    last_used_at: TimestampSchema.nullable(),
    revoked_at: TimestampSchema.nullable(),
  })
  .meta({ id: 'PersonalAccessToken' });

export const CreatedTokenSchema = PersonalAccessTokenSchema.extend({ token: z.string() }).meta({ id: 'CreatedPersonalAccessToken' });

export const TokenListSchema = z.object({ tokens: z.array(PersonalAccessTokenSchema), next_cursor: z.string().nullable() });
