/**
 * Audit events. Identity events (logins, MFA, tokens, users, workspaces) go to the tenant's
 * identity log; connection events to the owning workspace's log. An event that belongs to a
 * change is written in the same transaction as the change (`auditEventPut`).
 *
 * Payloads describe what changed (field names, ids, counts), never a secret value; as a last
 * line of defence, fields whose names say they hold one are dropped.
 *
 * Each log (a tenant's identity log, a workspace's log) is a hash chain (`audit-chain.ts`): the
 * event put is a chained append, linked and serialised by `deps.table.transact`, which after the
 * commit records the head it left in the audit anchor (`audit-anchor.ts`), outside the table.
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { keys, type ItemKey } from '../store/keys';
import type { AuditEventRecord } from '../store/records';
import type { ChainLink, Page, PageRequest, TransactItem } from '../store/table-client';
import type { AuditChainRef } from './audit-anchor';
import { linkAuditEvent } from './audit-chain';
import { auditAnchor } from './create-audit-anchor';
import type { IdentityAuditAction } from './identity-audit-actions';

export type AuditLog = 'identity' | 'workspace';

interface AuditEventFields {
  tenantId: string;
  workspaceId?: string | null;
  actorId: string | null;
  targetType: string;
  targetId: string;
  payload?: Record<string, unknown>;
  sourceIp?: string | null;
}

/** Identity events name an action of the catalogue (`identity-audit-actions.ts`); workspace events their own. */
export type AuditEventInput = AuditEventFields & ({ log: 'identity'; action: IdentityAuditAction } | { log: 'workspace'; action: string });

const SECRET_FIELD = /(password|secret|token|hash|backup_code|configuration)$/i;

function withoutSecrets(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([name]) => !SECRET_FIELD.test(name)));
}

/**
 * Where a tenant's identity log keeps its head, for a use case that reads it ahead together
 * with its other items (one round trip instead of two) and hands it over as `AuditEventOptions.head`.
 */
export const identityLogHeadKey = (tenantId: string): ItemKey => keys.identityAuditChainHead(tenantId);

export interface AuditEventOptions {
  /**
   * The log's head as read ahead by the caller (`chainLinkOf` of the item at its head key; null:
   * the log is empty). A head that has moved since only costs the transaction another turn.
   */
  head?: ChainLink | null;
}

export function auditEventPut(deps: Deps, input: AuditEventInput, options: AuditEventOptions = {}): { item: TransactItem; event: AuditEventRecord } {
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
    // Set when the transaction links the event to its chain.
    seq: 0,
    prev_digest: null,
    digest: '',
  };
  if (input.log === 'workspace' && !input.workspaceId) throw new Error('A workspace audit event needs its workspace');
  const workspace = input.log === 'workspace' ? input.workspaceId! : undefined;
  const key = workspace ? keys.workspaceAuditEvent(input.tenantId, workspace, event.event_id) : keys.identityAuditEvent(input.tenantId, event.event_id);
  const head = workspace ? keys.workspaceAuditChainHead(input.tenantId, workspace) : keys.identityAuditChainHead(input.tenantId);
  const content: Record<string, unknown> = { ...event };
  for (const field of ['seq', 'prev_digest', 'digest']) delete content[field];
  const item = deps.table.chainedPutItem({ ...key, ...event }, {
    head,
    link: (previous) => {
      const fields = linkAuditEvent(content, previous);
      Object.assign(event, fields);
      return fields;
    },
    ...(options.head !== undefined ? { knownHead: options.head } : {}),
    committed: (link) => anchorHead(deps, { tenantId: input.tenantId, workspaceId: workspace }, link),
  });
  return { item, event };
}

/**
 * Records the head a committed append left. The change and its event are committed by now, so
 * a failure here must not turn the request into an error the client would retry: it is logged,
 * `verify-audit` reports the events after the last anchored head until an append anchors again
 * (a head covers every event before it).
 */
async function anchorHead(deps: Deps, chain: AuditChainRef, head: ChainLink): Promise<void> {
  try {
    await deps.part(auditAnchor).record(chain, head);
  } catch (error) {
    deps.observability.logger.error('audit anchor not recorded', { tenant_id: chain.tenantId, workspace_id: chain.workspaceId ?? null, seq: head.seq, error: error instanceof Error ? error.message : String(error) });
  }
}

export async function recordAuditEvent(deps: Deps, input: AuditEventInput, options: AuditEventOptions = {}): Promise<AuditEventRecord> {
  const { item, event } = auditEventPut(deps, input, options);
  await deps.table.transact([item]);
  return event;
}

/** What a reader of an audit log may filter on; a filter may leave a page short (never wrong). */
export interface AuditFilter {
  action?: string | undefined;
  actorId?: string | undefined;
  targetId?: string | undefined;
  /** ISO timestamps (UTC): events at or after `since`, before `until`. */
  since?: string | undefined;
  until?: string | undefined;
}

const FILTER_CONDITIONS: Record<keyof AuditFilter, string> = {
  action: '#action = :action',
  actorId: 'actor_id = :actorId',
  targetId: 'target_id = :targetId',
  since: 'created_at >= :since',
  until: 'created_at < :until',
};

function filterOption(filter: AuditFilter): { filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> } } {
  const given = (Object.keys(FILTER_CONDITIONS) as (keyof AuditFilter)[]).filter((name) => filter[name] !== undefined);
  if (given.length === 0) return {};
  return {
    filter: {
      expression: given.map((name) => FILTER_CONDITIONS[name]).join(' AND '),
      names: given.includes('action') ? { '#action': 'action' } : {},
      values: Object.fromEntries(given.map((name) => [`:${name}`, filter[name]])),
    },
  };
}

/** The tenant's identity log, newest first. */
export function listIdentityAuditEvents(deps: Deps, tenantId: string, page: PageRequest, filter: AuditFilter = {}): Promise<Page<AuditEventRecord>> {
  return deps.table.queryPrefix<AuditEventRecord>(keys.identityAuditEvents(tenantId), page, filterOption(filter));
}

/** A workspace's log (its connections' changes and tests), newest first. */
export function listWorkspaceAuditEvents(deps: Deps, tenantId: string, workspaceId: string, page: PageRequest, filter: AuditFilter = {}): Promise<Page<AuditEventRecord>> {
  return deps.table.queryPrefix<AuditEventRecord>(keys.workspaceAuditEvents(tenantId, workspaceId), page, filterOption(filter));
}
