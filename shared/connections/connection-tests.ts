/**
 * The test operation: decrypt the configuration (checking it belongs to this connection),
 * run the connector under a time limit, and commit the test record, the new status and the
 * audit event together. A provider that fails or does not answer is a `failure`, never a 5xx:
 * the time limit leaves the commit its reserve of the invocation (`connection-test-budget.ts`).
 */
import type { Deps } from '../deps';
import { NotFoundError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { findIntegration } from '../connectors/catalog';
import type { ConnectorTestResult } from '../connectors/connector';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { ConnectionTestRecord } from '../store/records';
import { readConfiguration, UNREADABLE_CONFIGURATION } from './connection-configuration';
import { getConnection, type Actor } from './connection-records';
import { assertConnectionLicensed } from './integration-licenses';
import { connectorOf } from '../connectors/connector-registry';
import { providerBudgetMs } from './connection-test-budget';

/** The invocation the test runs in: its remaining time bounds the provider's (the Lambda context's `getRemainingTimeInMillis`). */
export interface TestInvocation {
  remainingTimeMs(): number;
}

async function runConnectorTest(deps: Deps, invocation: TestInvocation, integrationId: string, configuration: unknown, scope: unknown): Promise<ConnectorTestResult> {
  const integration = findIntegration(integrationId);
  if (!integration?.supports_test) {
    return { status: 'failure', remediation: [{ category: 'configuration', message: 'This connector does not support the test operation', action: 'Run a discovery instead' }] };
  }
  try {
    const signal = AbortSignal.timeout(providerBudgetMs(deps.config.connectors.testTimeoutMs, invocation.remainingTimeMs()));
    return await connectorOf(integration).test({ configuration, scope }, { signal, endpoints: deps.config.connectors.endpoints, oktaOrgs: deps.config.connectors.oktaOrgs });
  } catch (error) {
    // Connectors report provider trouble as results; anything thrown is ours, logged without the configuration.
    deps.observability.logger.error('connector test threw', { integration_id: integrationId, error_name: (error as Error).name });
    return { status: 'failure', remediation: [{ category: 'connectivity', message: 'The test could not be completed', action: 'Try again later; if it persists, contact support' }] };
  }
}

export async function testConnection(deps: Deps, actor: Actor, connectionId: string, invocation: TestInvocation): Promise<Pick<ConnectionTestRecord, 'test_id' | 'status' | 'checked_at' | 'remediation'>> {
  const connection = await getConnection(deps, actor, connectionId);
  await assertConnectionLicensed(deps, actor.tenantId, connection.integration_id);
  const configuration = await readConfiguration(deps, actor, connectionId, connection.configuration_encrypted);
  const result =
    configuration === undefined
      ? { status: 'failure' as const, remediation: [UNREADABLE_CONFIGURATION] }
      : await runConnectorTest(deps, invocation, connection.integration_id, configuration.value, connection.scope);
  const checkedAt = deps.clock.now().toISOString();
  const record: ConnectionTestRecord = {
    test_id: deps.ids.next('test'),
    connection_id: connectionId,
    tenant_id: actor.tenantId,
    workspace_id: actor.workspaceId,
    status: result.status,
    checked_at: checkedAt,
    remediation: result.remediation,
    created_at: checkedAt,
  };
  const audit = auditEventPut(deps, {
    log: 'workspace', tenantId: actor.tenantId, workspaceId: actor.workspaceId, actorId: actor.userId,
    action: 'connection_tested', targetType: 'connection', targetId: connectionId,
    payload: { test_id: record.test_id, status: record.status, remediation_categories: [...new Set(record.remediation.map((r) => r.category))] }, sourceIp: actor.sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.putItem({ ...keys.connectionTest(actor.tenantId, actor.workspaceId, connectionId, record.test_id), ...record }),
      deps.table.updateItem({
        Key: keys.connection(actor.tenantId, actor.workspaceId, connectionId),
        UpdateExpression: 'SET #status = :status, updated_at = :now, version = version + :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': result.status === 'success' ? 'healthy' : 'degraded', ':now': checkedAt, ':one': 1 },
      }),
      audit.item,
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('connection'); // deleted while testing
    throw error;
  }
  return { test_id: record.test_id, status: record.status, checked_at: record.checked_at, remediation: record.remediation };
}
