/**
 * Reading a connection's stored configuration back: only the test operation and the run worker
 * do it, so only their functions hold the KMS grant (test/infra checks the bundles).
 */
import type { Deps } from '../deps';
import { envelopeOf } from '../crypto/envelope';
import type { RemediationItem } from '../connectors/connector';
import type { WorkspaceScope } from '../identity/principal';
import { encryptionContext } from '../crypto/encryption-contexts';

export const UNREADABLE_CONFIGURATION: RemediationItem = {
  category: 'configuration',
  message: 'The stored configuration of this connection cannot be decrypted',
  action: 'Enter the configuration again with PATCH /v1/connections/{id}',
};

/**
 * Undefined when the ciphertext does not decrypt under this connection's context (moved from
 * another connection, or a key that is gone): a security event, logged, never a 500.
 */
export async function readConfiguration(deps: Deps, scope: WorkspaceScope, connectionId: string, ciphertext: string): Promise<{ value: unknown } | undefined> {
  try {
    return { value: JSON.parse(await (await envelopeOf(deps)).decrypt(ciphertext, encryptionContext('connection_configuration', { tenant_id: scope.tenantId, workspace_id: scope.workspaceId, connection_id: connectionId }))) as unknown };
  } catch (error) {
    deps.observability.logger.error('connection configuration does not decrypt', { connection_id: connectionId, error_name: (error as Error).name });
    return undefined;
  }
}
