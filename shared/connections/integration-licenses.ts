/**
 * Licensed integrations: which integrations of the catalog a tenant may use, set by the
 * operator (`npm run tessera -- license`). A tenant without a licence record may use every
 * integration, so tenants from before licensing, and deployments that do not sell per
 * integration, keep working unchanged.
 *
 * What a licence decides: the catalog lists only licensed integrations; creating a connection
 * of any other is refused exactly as an unknown integration is (400, `integration_id`); a
 * connection whose integration left the licence keeps its data and can be read, changed and
 * deleted, but is neither tested nor run (403; its scheduled slots are skipped).
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ForbiddenError, ValidationError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { findIntegration } from '../connectors/catalog';
import { keys } from '../store/keys';
import type { TenantLicenseRecord } from '../store/records';

/** The licensed integration ids of a tenant, or `undefined` when it may use all of them. */
export async function licensedIntegrationIds(deps: Deps, tenantId: string): Promise<readonly string[] | undefined> {
  const record = await deps.table.get<TenantLicenseRecord>(keys.tenantLicense(tenantId));
  return record?.integrations ?? undefined;
}

export async function isIntegrationLicensed(deps: Deps, tenantId: string, integrationId: string): Promise<boolean> {
  const licensed = await licensedIntegrationIds(deps, tenantId);
  return licensed === undefined || licensed.includes(integrationId);
}

/** The refusal of an integration the caller cannot use: the same whether it is unknown or unlicensed. */
export const unknownIntegrationError = () => new ValidationError([{ path: 'integration_id', message: 'is not an integration of the catalog' }]);

/** Creation: an unlicensed integration is refused as an unknown one. */
export async function assertIntegrationAvailable(deps: Deps, tenantId: string, integrationId: string): Promise<void> {
  if (!(await isIntegrationLicensed(deps, tenantId, integrationId))) throw unknownIntegrationError();
}

/** Tests and manual runs of an existing connection whose integration left the licence. */
export async function assertConnectionLicensed(deps: Deps, tenantId: string, integrationId: string): Promise<void> {
  if (!(await isIntegrationLicensed(deps, tenantId, integrationId))) {
    throw new ForbiddenError(`The tenant's licence does not include ${integrationId}: its connections keep their data but are neither tested nor run`);
  }
}

/**
 * The operator sets a tenant's licence: a list of integration ids, or `null` for all. Unknown
 * ids are refused. Written with its audit event (identity log, actor: the operator, `null`).
 */
export async function setTenantLicense(deps: Deps, tenantId: string, integrations: readonly string[] | null): Promise<TenantLicenseRecord> {
  const unknown = (integrations ?? []).filter((id) => !findIntegration(id));
  if (unknown.length) throw new ValidationError(unknown.map((id) => ({ path: 'integrations', message: `${id} is not an integration of the catalog` })));
  const previous = await deps.table.get<TenantLicenseRecord>(keys.tenantLicense(tenantId));
  const record: TenantLicenseRecord = { tenant_id: tenantId, integrations: integrations === null ? null : [...new Set(integrations)].sort(), updated_at: isoNow(deps.clock) };
  await deps.table.transact([
    deps.table.putItem({ ...keys.tenantLicense(tenantId), ...record }),
    auditEventPut(deps, {
      log: 'identity', tenantId, actorId: null, action: 'tenant_license_changed', targetType: 'tenant', targetId: tenantId,
      payload: { integrations: record.integrations, previous: previous?.integrations ?? null, source: 'operator_cli' },
    }).item,
  ]);
  return record;
}
