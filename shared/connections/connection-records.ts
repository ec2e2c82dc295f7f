/**
 * Reading, listing and deleting connections: nothing here touches the configuration's
 * plaintext, so the functions serving these routes hold no KMS grant (test/infra checks).
 * Every key is built from the caller's tenant and workspace: another workspace's connection
 * is simply not there (404).
 */
import type { Deps } from '../deps';
import { NotFoundError, PreconditionFailedError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import type { WorkspaceScope } from '../identity/principal';
import { isConditionFailure } from '../store/client';
import { countDownItem } from '../store/item-counts';
import { keys } from '../store/keys';
import type { ConnectionRecord, ConnectionTestRecord } from '../store/records';
import type { ItemRead, Page, PageRequest } from '../store/table-client';

export interface Actor extends WorkspaceScope {
  userId: string;
  sourceIp: string;
}

export type ConnectionView = Omit<ConnectionRecord, 'configuration_encrypted' | 'configuration_kms_key_id' | 'version' | 'active_run_id' | 'next_run_at'> & {
  next_run_at: string | null;
};

export function toConnectionView(record: ConnectionRecord): ConnectionView {
  return {
    connection_id: record.connection_id,
    integration_id: record.integration_id,
    connector_id: record.connector_id,
    connector_version: record.connector_version,
    name: record.name,
    tenant_id: record.tenant_id,
    workspace_id: record.workspace_id,
    scope: record.scope,
    schedule: { ...record.schedule, timezone: record.schedule.timezone ?? 'UTC' },
    status: record.status,
    last_run_at: record.last_run_at,
    next_run_at: record.next_run_at ?? null,
    configuration_schema_version: record.configuration_schema_version,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The stored item of a connection: its key, its place in the due-run index, and the record. */
export function connectionItem(record: ConnectionRecord): Record<string, unknown> {
  return {
    ...keys.connection(record.tenant_id, record.workspace_id, record.connection_id),
    ...(record.next_run_at ? keys.dueConnection(record.connection_id, record.next_run_at) : {}),
    ...record,
  };
}

export const etagOf = (record: Pick<ConnectionRecord, 'version'>): string => `"v${record.version}"`;

/** A connection of the scope's workspace, or 404: another workspace's is simply not under this key. */
export const connectionRead = (scope: WorkspaceScope, connectionId: string): ItemRead<ConnectionRecord> => ({
  key: keys.connection(scope.tenantId, scope.workspaceId, connectionId),
  found: (item) => {
    if (!item) throw new NotFoundError('connection');
    return item as unknown as ConnectionRecord;
  },
});

export const getConnection = (deps: Deps, scope: WorkspaceScope, connectionId: string): Promise<ConnectionRecord> => deps.table.read(connectionRead(scope, connectionId));

export async function listConnections(deps: Deps, scope: WorkspaceScope, page: PageRequest & { integrationId?: string | undefined }): Promise<Page<ConnectionView>> {
  const filter = page.integrationId ? { expression: 'integration_id = :integration', values: { ':integration': page.integrationId } } : undefined;
  const result = await deps.table.queryPrefix<ConnectionRecord>(keys.connections(scope.tenantId, scope.workspaceId), page, filter ? { filter } : {});
  return { items: result.items.map(toConnectionView), nextCursor: result.nextCursor };
}

export async function deleteConnection(deps: Deps, actor: Actor, connectionId: string, ifMatch: string | undefined): Promise<void> {
  const current = await getConnection(deps, actor, connectionId);
  if (ifMatch !== undefined && ifMatch !== etagOf(current) && ifMatch !== '*') throw new PreconditionFailedError('The connection has changed since you read it (If-Match is not its current ETag); read it again');
  const audit = auditEventPut(deps, {
    log: 'workspace', tenantId: actor.tenantId, workspaceId: actor.workspaceId, actorId: actor.userId,
    action: 'connection_deleted', targetType: 'connection', targetId: connectionId, payload: { name: current.name, integration_id: current.integration_id }, sourceIp: actor.sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.deleteItem({ Key: keys.connection(actor.tenantId, actor.workspaceId, connectionId), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } }),
      countDownItem(deps.table, keys.connectionCount(actor.tenantId, actor.workspaceId)),
      audit.item,
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (ifMatch !== undefined) throw new PreconditionFailedError('The connection has changed since you read it (If-Match is not its current ETag); read it again');
    throw new NotFoundError('connection'); // deleted concurrently, or changed: the caller reads again
  }
}

export const actorOf = (principal: { tenantId: string; workspaceId: string; userId: string }, sourceIp: string): Actor => ({
  tenantId: principal.tenantId,
  workspaceId: principal.workspaceId,
  userId: principal.userId,
  sourceIp,
});

export async function listConnectionTests(deps: Deps, scope: WorkspaceScope, connectionId: string, page: PageRequest): Promise<Page<ConnectionTestRecord>> {
  await getConnection(deps, scope, connectionId);
  return deps.table.queryPrefix<ConnectionTestRecord>(keys.connectionTests(scope.tenantId, scope.workspaceId, connectionId), page);
}
