/**
 * `POST /v1/exports`: checks what the caller may read and that what the filters name exists in
 * the caller's workspace, then writes the export (with its audit event, in one transaction) and
 * puts its job on the run queue. A refused request writes nothing.
 */
import type { Deps } from '../deps';
import { getPersonRecord } from '../access/people-views';
import { auditEventPut } from '../audit/audit-log';
import { getConnection, type Actor } from '../connections/connection-records';
import type { Principal, WorkspaceScope } from '../identity/principal';
import { runQueueOf } from '../runs/run-queue';
import { findEntity } from '../runs/inventory-views';
import { keys } from '../store/keys';
import { assertMayRead, EXPORT_RETENTION_SECONDS, type ExportFilterNames, type ExportFilters, type ExportRecord } from './export-records';
import type { CreateExportBody } from './export-schemas';

const filtersOf = (body: CreateExportBody): ExportFilters => {
  const filters: ExportFilters = {};
  for (const name of ['connection_id', 'person_id', 'entity_id', 'since', 'until'] as const) {
    const value = body[name];
    if (value !== undefined) filters[name] = value;
  }
  return filters;
};

/** What the filters point at must exist in the caller's workspace (404 otherwise, and nothing is written): their names. */
async function namesOfFilters(deps: Deps, scope: WorkspaceScope, filters: ExportFilters): Promise<ExportFilterNames> {
  const names: ExportFilterNames = {};
  if (filters.connection_id) names.connection_name = (await getConnection(deps, scope, filters.connection_id)).name;
  if (filters.connection_id && filters.entity_id) names.entity_display_name = (await findEntity(deps, scope, filters.connection_id, filters.entity_id)).display_name;
  if (filters.person_id) names.person_display_name = (await getPersonRecord(deps, scope, filters.person_id)).display_name;
  return names;
}

/** Queues an export for the caller; its URL goes in Location. */
export async function requestExport(deps: Deps, actor: Actor, principal: Pick<Principal, 'permissions'>, body: CreateExportBody): Promise<{ record: ExportRecord; location: string }> {
  assertMayRead(principal, body.source);
  const filters = filtersOf(body);
  const filterNames = await namesOfFilters(deps, actor, filters);
  const now = deps.clock.now();
  const record: ExportRecord = {
    export_id: deps.ids.next('exp'),
    tenant_id: actor.tenantId,
    workspace_id: actor.workspaceId,
    created_by: actor.userId,
    source: body.source,
    format: body.format,
    filters,
    filter_names: filterNames,
    status: 'queued',
    rows: 0,
    created_at: now.toISOString(),
    started_at: null,
    finished_at: null,
    expires_at: new Date(now.getTime() + EXPORT_RETENTION_SECONDS * 1000).toISOString(),
    error: null,
    object_key: null,
  };
  const audit = auditEventPut(deps, {
    log: 'workspace', tenantId: actor.tenantId, workspaceId: actor.workspaceId, actorId: actor.userId,
    action: 'export_requested', targetType: 'export', targetId: record.export_id,
    payload: { source: record.source, format: record.format, ...filters }, sourceIp: actor.sourceIp,
  });
  const key = keys.export(actor.tenantId, actor.workspaceId, record.export_id);
  await deps.table.transact([
    deps.table.putItem({ ...key, ...record, ttl: Math.floor(Date.parse(record.expires_at) / 1000) }, { expression: 'attribute_not_exists(PK)' }),
    audit.item,
  ]);
  try {
    await runQueueOf(deps).send({ type: 'export', tenant_id: actor.tenantId, workspace_id: actor.workspaceId, export_id: record.export_id });
  } catch (error) {
    // Nothing would ever run it: say so on the record rather than leave it queued for a day.
    await deps.table.update({ Key: key, UpdateExpression: 'SET #status = :failed, #error = :why', ExpressionAttributeNames: { '#status': 'status', '#error': 'error' }, ExpressionAttributeValues: { ':failed': 'failed', ':why': 'The export could not be queued; ask again' } });
    throw error;
  }
  return { record, location: `${deps.config.publicUrl}/v1/exports/${record.export_id}` };
}

