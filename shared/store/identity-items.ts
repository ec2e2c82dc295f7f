/**
 * Reads of the identity records by their natural keys. Writes live with the use cases that
 * make them, because most of them are transactions spanning several records and an audit event.
 */
import type { Deps } from '../deps';
import { keys } from './keys';
import type { TenantRecord, UserRecord, WorkspaceRecord } from './records';

export const getTenant = (deps: Deps, tenantId: string) => deps.table.get<TenantRecord>(keys.tenant(tenantId));

export async function getTenantBySlug(deps: Deps, slug: string): Promise<TenantRecord | undefined> {
  const pointer = await deps.table.get<{ tenant_id: string }>(keys.tenantSlug(slug));
  return pointer ? getTenant(deps, pointer.tenant_id) : undefined;
}

export const getUser = (deps: Deps, tenantId: string, userId: string) => deps.table.get<UserRecord>(keys.user(tenantId, userId));

export async function getUserByEmail(deps: Deps, tenantId: string, email: string): Promise<UserRecord | undefined> {
  const pointer = await deps.table.get<{ user_id: string }>(keys.userEmail(tenantId, email));
  return pointer ? getUser(deps, tenantId, pointer.user_id) : undefined;
}

export async function getUserByUsername(deps: Deps, tenantId: string, username: string): Promise<UserRecord | undefined> {
  const pointer = await deps.table.get<{ user_id: string }>(keys.userUsername(tenantId, username));
  return pointer ? getUser(deps, tenantId, pointer.user_id) : undefined;
}

export const getWorkspace = (deps: Deps, tenantId: string, workspaceId: string) => deps.table.get<WorkspaceRecord>(keys.workspace(tenantId, workspaceId));

