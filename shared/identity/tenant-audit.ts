/**
 * `GET /v1/tenants/{id}/audit-events`: the tenant's identity log for its admins (sign-ins and
 * their failures with the source address, MFA, tokens, passwords, users and roles, IdP, MFA
 * policy, owner transfers), filtered by action, actor and time.
 */
import type { Deps } from '../deps';
import { listIdentityAuditEvents } from '../audit/audit-log';
import { ValidationError } from '../errors';
import type { AuditEventRecord } from '../store/records';
import type { Page, PageRequest } from '../store/table-client';
import { assertOwnTenant, type Principal } from './principal';

export interface TenantAuditQuery extends PageRequest {
  action?: string | undefined;
  actor_id?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

export async function listTenantAuditEvents(deps: Deps, principal: Principal, tenantId: string, query: TenantAuditQuery): Promise<Page<AuditEventRecord>> {
  assertOwnTenant(principal, tenantId);
  // Stored times are UTC ISO strings: compare like with like, whatever offset the client wrote.
  const since = query.since === undefined ? undefined : new Date(query.since).toISOString();
  const until = query.until === undefined ? undefined : new Date(query.until).toISOString();
  if (since !== undefined && until !== undefined && since >= until) throw new ValidationError([{ path: 'until', message: 'must be later than since' }]);
  return listIdentityAuditEvents(deps, tenantId, { limit: query.limit, cursor: query.cursor }, { action: query.action, actorId: query.actor_id, since, until });
}
