/** GET /v1/integrations and GET /v1/audit-events: read-only views for any role. */
import type { Deps } from '../deps';
import { listWorkspaceAuditEvents } from '../audit/audit-log';
import { integrationView, visibleIntegrations } from '../connectors/catalog';
import type { WorkspaceScope } from '../identity/principal';
import type { PageRequest } from '../store/table-client';

/** The catalog the caller may see (filtered by permission, and by licensing once tenants carry it). */
export const listIntegrations = (permissions: readonly string[]) => visibleIntegrations({ permissions }).map(integrationView);

export async function listAuditEvents(deps: Deps, scope: WorkspaceScope, query: PageRequest & { action?: string | undefined; target_id?: string | undefined }) {
  const page = await listWorkspaceAuditEvents(deps, scope.tenantId, scope.workspaceId, query, { action: query.action, targetId: query.target_id });
  // source_ip stays internal: personal data the workspace's readers do not need.
  return { items: page.items.map(({ source_ip: _ip, ...event }) => event), nextCursor: page.nextCursor };
}
