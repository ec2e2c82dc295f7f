/** Request and response schemas of the workspace endpoints. */
import * as z from 'zod/mini';
import { DisplayText, idOf, TimestampSchema } from '../schemas/field-schemas';

export const WorkspaceSchema = z
  .object({ id: z.string(), tenant_id: z.string(), name: z.string(), owner_id: z.string(), created_at: TimestampSchema, updated_at: TimestampSchema })
  .register(z.globalRegistry, { id: 'Workspace' });

export const CreateWorkspaceBodySchema = z.strictObject({ name: DisplayText(128) });

export const OwnerTransferBodySchema = z.strictObject({ new_owner_id: idOf('usr') });

export const WorkspaceListSchema = z.object({ workspaces: z.array(WorkspaceSchema), next_cursor: z.nullable(z.string()) });
