/**
 * Creating and changing connections: workspace-owned, scheduled instances of an integration.
 * The configuration is write-only: validated against the integration's schema, encrypted
 * under {tenant, workspace, connection} before it is stored, never in an answer, a log line
 * or an audit payload.
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { encryptionContext } from '../crypto/encryption-contexts';
import { envelopeOf } from '../crypto/envelope';
import { LimitExceededError, PreconditionFailedError, ValidationError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { findIntegration } from '../connectors/catalog';
import type { IntegrationDefinition } from '../connectors/connector';
import { parseWith } from '../schemas/validation';
import { withIdempotencyKey } from '../idempotency';
import { isConditionFailure } from '../store/client';
import { countLimits, countUpItem, failedConditionAt } from '../store/item-counts';
import { keys } from '../store/keys';
import type { ConnectionRecord, ConnectionSchedule } from '../store/records';
import type { TransactItem } from '../store/table-client';
import { nextRunAt } from '../runs/schedule';
import { assertIntegrationAvailable, unknownIntegrationError } from './integration-licenses';
import { connectionItem, etagOf, getConnection, toConnectionView, type Actor, type ConnectionView } from './connection-records';

function integrationOrRefuse(integrationId: string): IntegrationDefinition {
  const integration = findIntegration(integrationId);
  if (!integration) throw unknownIntegrationError();
  return integration;
}


/** The version of a connection as created (its first ETag). */
const CREATED_VERSION = 1;
export interface CreateConnectionInput {
  integration_id: string;
  name: string;
  scope: Record<string, unknown>;
  schedule: ConnectionSchedule;
  configuration: Record<string, unknown>;
}

/** The writes of a creation (connection + audit), for callers that add their own (idempotency). */
export async function prepareConnectionCreation(deps: Deps, actor: Actor, input: CreateConnectionInput): Promise<{ record: ConnectionRecord; items: TransactItem[] }> {
  await assertIntegrationAvailable(deps, actor.tenantId, input.integration_id);
  const integration = integrationOrRefuse(input.integration_id);
  const scope = parseWith(integration.scopeSchema, input.scope, 'scope') as Record<string, unknown>;
  const configuration = parseWith(integration.configurationSchema, input.configuration, 'configuration') as Record<string, unknown>;
  const now = isoNow(deps.clock);
  const connectionId = deps.ids.next('conn');
  const schedule = withTimeZone(input.schedule);
  const envelope = await envelopeOf(deps);
  const record: ConnectionRecord = {
    connection_id: connectionId,
    integration_id: integration.integration_id,
    connector_id: integration.connector_id,
    connector_version: integration.version,
    name: input.name,
    tenant_id: actor.tenantId,
    workspace_id: actor.workspaceId,
    scope,
    schedule,
    status: 'unknown',
    last_run_at: null,
    next_run_at: nextRunAt(schedule, deps.clock.now()).toISOString(),
    active_run_id: null,
    configuration_encrypted: await envelope.encrypt(JSON.stringify(configuration), encryptionContext('connection_configuration', { tenant_id: actor.tenantId, workspace_id: actor.workspaceId, connection_id: connectionId })),
    configuration_kms_key_id: envelope.keyId,
    configuration_schema_version: integration.configurationSchemaVersion,
    created_at: now,
    updated_at: now,
    version: CREATED_VERSION,
  };
  const audit = auditEventPut(deps, {
    log: 'workspace', tenantId: actor.tenantId, workspaceId: actor.workspaceId, actorId: actor.userId,
    action: 'connection_created', targetType: 'connection', targetId: connectionId,
    payload: { name: record.name, integration_id: record.integration_id, fields: ['name', 'scope', 'schedule', 'configuration'] }, sourceIp: actor.sourceIp,
  });
  return {
    record,
    // The workspace's count first: `createConnection` tells its refusal apart by that index.
    items: [countUpItem(deps.table, keys.connectionCount(actor.tenantId, actor.workspaceId), countLimits.connectionsPerWorkspace), deps.table.putItem(connectionItem(record), { expression: 'attribute_not_exists(PK)' }), audit.item],
  };
}

/**
 * A creation's transaction: refused with 409 `limit_exceeded` when the workspace already has
 * its 1000 connections (the count moves in the same transaction, so racing creations cannot
 * pass it). A workspace made before the count existed counts from its next connection on.
 */
async function transactCreation(deps: Deps, items: TransactItem[]): Promise<void> {
  try {
    await deps.table.transact(items);
  } catch (error) {
    if (failedConditionAt(error, 0)) throw new LimitExceededError(`The workspace has ${countLimits.connectionsPerWorkspace} connections, the most it may have; delete one first`);
    throw error;
  }
}

/** The stored schedule always names its time zone (UTC when the client gave none). */
const withTimeZone = (schedule: ConnectionSchedule): ConnectionSchedule => ({ ...schedule, timezone: schedule.timezone ?? 'UTC' });
/** A schedule's value in a fixed field order: the table hands a map back in its own order, not the client's. */
const scheduleValue = (schedule: ConnectionSchedule): string => JSON.stringify(withTimeZone(schedule), ['type', 'hour', 'minute', 'timezone']);

export interface UpdateConnectionInput {
  integration_id?: string | undefined;
  name?: string | undefined;
  scope?: Record<string, unknown> | undefined;
  schedule?: ConnectionSchedule | undefined;
  configuration?: Record<string, unknown> | undefined;
}

const MAX_UPDATE_ATTEMPTS = 3;

/**
 * A partial update. With `If-Match` the caller's version must be current (else 412); without
 * it a concurrent change is re-read and the patch applied again on top, so no update is lost.
 */
export async function updateConnection(deps: Deps, actor: Actor, connectionId: string, input: UpdateConnectionInput, ifMatch: string | undefined): Promise<ConnectionRecord> {
  for (let attempt = 1; ; attempt++) {
    const current = await getConnection(deps, actor, connectionId);
    if (ifMatch !== undefined && ifMatch !== etagOf(current) && ifMatch !== '*') throw new PreconditionFailedError('The connection has changed since you read it (If-Match is not its current ETag); read it again');
    if (input.integration_id !== undefined && input.integration_id !== current.integration_id) {
      throw new ValidationError([{ path: 'integration_id', message: 'cannot be changed; create a new connection' }]);
    }
    const integration = integrationOrRefuse(current.integration_id);
    const changed: string[] = [];
    const next: ConnectionRecord = { ...current, version: current.version + 1, updated_at: isoNow(deps.clock) };
    if (input.name !== undefined && input.name !== current.name) {
      next.name = input.name;
      changed.push('name');
    }
    if (input.scope !== undefined) {
      next.scope = parseWith(integration.scopeSchema, input.scope, 'scope') as Record<string, unknown>;
      if (JSON.stringify(next.scope) !== JSON.stringify(current.scope)) changed.push('scope');
    }
    if (input.schedule !== undefined) {
      const schedule = withTimeZone(input.schedule);
      if (scheduleValue(schedule) !== scheduleValue(current.schedule)) {
        next.schedule = schedule;
        next.next_run_at = nextRunAt(schedule, deps.clock.now()).toISOString();
        changed.push('schedule');
      }
    }
    if (input.configuration !== undefined) {
      const configuration = parseWith(integration.configurationSchema, input.configuration, 'configuration');
      const envelope = await envelopeOf(deps);
      next.configuration_encrypted = await envelope.encrypt(JSON.stringify(configuration), encryptionContext('connection_configuration', { tenant_id: actor.tenantId, workspace_id: actor.workspaceId, connection_id: connectionId }));
      next.configuration_kms_key_id = envelope.keyId;
      next.configuration_schema_version = integration.configurationSchemaVersion;
      changed.push('configuration'); // a replaced secret is a change even when we cannot compare it
    }
    // The last test or run said nothing about what it did not see: health is unknown again.
    if (changed.includes('configuration') || changed.includes('scope')) next.status = 'unknown';
    const audit = auditEventPut(deps, {
      log: 'workspace', tenantId: actor.tenantId, workspaceId: actor.workspaceId, actorId: actor.userId,
      action: 'connection_edited', targetType: 'connection', targetId: connectionId, payload: { fields: changed }, sourceIp: actor.sourceIp,
    });
    try {
      await deps.table.transact([
        deps.table.putItem(connectionItem(next), { expression: 'version = :v', values: { ':v': current.version } }),
        audit.item,
      ]);
      return next;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (ifMatch !== undefined && ifMatch !== '*') throw new PreconditionFailedError('The connection has changed since you read it (If-Match is not its current ETag); read it again');
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw new PreconditionFailedError('The connection is being changed by others; try again');
    }
  }
}

/** POST /v1/connections, once per Idempotency-Key when the client sends one. */
export async function createConnection(deps: Deps, actor: Actor, input: CreateConnectionInput, idempotencyKey: string | undefined): Promise<{ body: unknown; etag: string }> {
  if (idempotencyKey === undefined) {
    const { record, items } = await prepareConnectionCreation(deps, actor, input);
    await transactCreation(deps, items);
    return { body: toConnectionView(record), etag: etagOf(record) };
  }
  const result = await withIdempotencyKey<ConnectionView>(deps, actor, idempotencyKey, input, async (complete) => {
    const { record, items } = await prepareConnectionCreation(deps, actor, input);
    const view = toConnectionView(record);
    await transactCreation(deps, [...items, complete(201, view)]);
    return { statusCode: 201, body: view };
  });
  // A replay answers the first answer again, ETag included: that of the version it created.
  return { body: result.body, etag: etagOf({ version: CREATED_VERSION }) };
}

