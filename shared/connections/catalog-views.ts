/** GET /v1/integrations and GET /v1/audit-events: read-only views for any role. */
import type { Deps } from '../deps';
import { listWorkspaceAuditEvents } from '../audit/audit-log';
import { integrationView, visibleIntegrations } from '../connectors/catalog';
import { licensedIntegrationIds } from './integration-licenses';
import type { WorkspaceScope } from '../identity/principal';
import type { PageRequest } from '../store/table-client';

/** The catalog the caller may see: filtered by permission and by the tenant's licence (no licence record: all). */
export async function listIntegrations(deps: Deps, tenantId: string, permissions: readonly string[]) {
  const licensed = await licensedIntegrationIds(deps, tenantId);
  return visibleIntegrations({ permissions, ...(licensed ? { licensedIntegrationIds: licensed } : {}) }).map(integrationView);
}

/** `since` / `until` are the export's window (shared/exports/export-sources.ts); the list route has none. */
export async function listAuditEvents(deps: Deps, scope: WorkspaceScope, query: PageRequest & { action?: string | undefined; target_id?: string | undefined; since?: string | undefined; until?: string | undefined }) {
  const page = await listWorkspaceAuditEvents(deps, scope.tenantId, scope.workspaceId, query, { action: query.action, targetId: query.target_id, since: query.since, until: query.until });
  // source_ip stays internal: personal data the workspace's readers do not need.
  return { items: page.items.map(({ source_ip: _ip, ...event }) => event), nextCursor: page.nextCursor };
}
