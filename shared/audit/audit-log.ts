/**
 * Audit events. Identity events (logins, MFA, tokens, users, workspaces) go to the tenant's
 * identity log; connection events to the owning workspace's log. An event that belongs to a
 * change is written in the same transaction as the change (`auditEventPut`).
 *
 * Payloads describe what changed (field names, ids, counts), never a secret value; as a last
 * line of defence, fields whose names say they hold one are dropped.
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { keys } from '../store/keys';
import type { AuditEventRecord } from '../store/records';
import type { Page, PageRequest, TransactItem } from '../store/table-client';

export type AuditLog = 'identity' | 'workspace';

export interface AuditEventInput {
  log: AuditLog;
  tenantId: string;
  workspaceId?: string | null;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  payload?: Record<string, unknown>;
  sourceIp?: string | null;
}

const SECRET_FIELD = /(password|secret|token|hash|backup_code|configuration)$/i;

function withoutSecrets(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([name]) => !SECRET_FIELD.test(name)));
}

export function auditEventPut(deps: Deps, input: AuditEventInput): { item: TransactItem; event: AuditEventRecord } {
  const event: AuditEventRecord = {
    event_id: deps.ids.next('evt'),
    tenant_id: input.tenantId,
    workspace_id: input.workspaceId ?? null,
    actor_id: input.actorId,
    action: input.action,
    target_type: input.targetType,
    target_id: input.targetId,
    payload: withoutSecrets(input.payload ?? {}),
    source_ip: input.sourceIp ?? null,
    created_at: isoNow(deps.clock),
  };
  if (input.log === 'workspace' && !input.workspaceId) throw new Error('A workspace audit event needs its workspace');
  const key =
    input.log === 'workspace'
      ? keys.workspaceAuditEvent(input.tenantId, input.workspaceId!, event.event_id)
      : keys.identityAuditEvent(input.tenantId, event.event_id);
  return { item: deps.table.putItem({ ...key, ...event }), event };
}

export async function recordAuditEvent(deps: Deps, input: AuditEventInput): Promise<AuditEventRecord> {
  const { item, event } = auditEventPut(deps, input);
  await deps.table.put({ Item: item.Put!.Item });
  return event;
}

export function listIdentityAuditEvents(deps: Deps, tenantId: string, page: PageRequest): Promise<Page<AuditEventRecord>> {
  return deps.table.queryPrefix<AuditEventRecord>(keys.identityAuditEvents(tenantId), page);
}

export function listWorkspaceAuditEvents(
  deps: Deps,
  tenantId: string,
  workspaceId: string,
  page: PageRequest,
  filter: { action?: string | undefined; targetId?: string | undefined } = {},
): Promise<Page<AuditEventRecord>> {
  const conditions: string[] = [];
  const values: Record<string, unknown> = {};
  if (filter.action !== undefined) {
    conditions.push('#action = :action');
    values[':action'] = filter.action;
  }
  if (filter.targetId !== undefined) {
    conditions.push('target_id = :target');
    values[':target'] = filter.targetId;
  }
  return deps.table.queryPrefix<AuditEventRecord>(
    keys.workspaceAuditEvents(tenantId, workspaceId),
    page,
    conditions.length ? { filter: { expression: conditions.join(' AND '), names: filter.action !== undefined ? { '#action': 'action' } : {}, values } } : {},
  );
}
