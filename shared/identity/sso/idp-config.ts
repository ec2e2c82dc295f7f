/**
 * The tenant's IdP configuration (one per tenant): OIDC settings (issuer, client id, an
 * envelope-encrypted client secret) and/or SAML settings (parsed IdP metadata), of which the
 * one named by `provider_type` is the active protocol; the email domains routed to it; the
 * redirect URIs clients may ask to come back to; the role just-in-time users get.
 *
 * `email_domains` may list only domains the tenant has verified (email-domains.ts: a DNS TXT
 * challenge, or the operator at tenant creation); the configuration claims no domain itself.
 * A listed domain whose verification lapses later stays listed but routes nothing.
 * Deleting or deactivating the configuration ends the tenant's federated sessions.
 */
import { X509Certificate } from 'node:crypto';
import { isoNow } from '../../clock';
import type { Deps } from '../../deps';
import { NotFoundError, PreconditionFailedError } from '../../errors';
import { auditEventPut } from '../../audit/audit-log';
import { isConditionFailure } from '../../store/client';
import { getTenant } from '../../store/identity-items';
import { keys } from '../../store/keys';
import type { IdpConfigRecord, TenantRecord } from '../../store/records';
import { assertOwnTenant, type Principal } from '../principal';
import { endFederatedSessions } from '../sessions';
import { serviceProviderEndpoints } from './sp-endpoints';

export const getIdpConfig = (deps: Deps, tenantId: string) => deps.table.get<IdpConfigRecord>(keys.idpConfig(tenantId));

const certificateFingerprint = (cert: string) => new X509Certificate(Buffer.from(cert, 'base64')).fingerprint256;

export function toIdpConfigView(deps: Deps, tenant: TenantRecord, record: IdpConfigRecord) {
  return {
    tenant_id: record.tenant_id,
    provider_type: record.provider_type,
    active: record.active,
    issuer: record.oidc?.issuer ?? null,
    client_id: record.oidc?.client_id ?? null,
    client_secret_set: Boolean(record.oidc?.client_secret_encrypted),
    saml_metadata: record.saml?.metadata ?? null,
    saml: record.saml
      ? {
          entity_id: record.saml.entity_id,
          sso_url: record.saml.sso_url,
          signing_certificate_sha256: record.saml.signing_certificates.map(certificateFingerprint),
          want_authn_requests_signed: record.saml.want_authn_requests_signed,
        }
      : null,
    email_domains: record.email_domains,
    allowed_redirect_uris: record.allowed_redirect_uris,
    default_role: record.default_role,
    default_workspace_id: record.default_workspace_id,
    saml_subject_attribute: record.saml_subject_attribute ?? null,
    service_provider: serviceProviderEndpoints(deps.config, tenant.slug),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export type IdpConfigView = ReturnType<typeof toIdpConfigView>;

/** The path names a tenant: it must be the caller's own (403 otherwise, per the contract). */
export async function ownTenant(deps: Deps, principal: Principal, tenantId: string): Promise<TenantRecord> {
  assertOwnTenant(principal, tenantId);
  const tenant = await getTenant(deps, tenantId);
  if (!tenant) throw new NotFoundError('tenant');
  return tenant;
}

export async function readIdpConfig(deps: Deps, principal: Principal, tenantId: string): Promise<IdpConfigView> {
  const tenant = await ownTenant(deps, principal, tenantId);
  const record = await getIdpConfig(deps, tenant.id);
  if (!record) throw new NotFoundError('IdP configuration');
  return toIdpConfigView(deps, tenant, record);
}

/** Sets `active: false` unless it already is (optimistic on `version`): no SSO sign-in completes from then on. */
async function switchedOff(deps: Deps, record: IdpConfigRecord): Promise<IdpConfigRecord> {
  if (!record.active) return record;
  const next: IdpConfigRecord = { ...record, active: false, updated_at: isoNow(deps.clock), version: record.version + 1 };
  try {
    await deps.table.update({
      Key: keys.idpConfig(record.tenant_id),
      UpdateExpression: 'SET active = :false, updated_at = :now, version = :next',
      ConditionExpression: 'version = :v',
      ExpressionAttributeValues: { ':false': false, ':now': next.updated_at, ':next': next.version, ':v': record.version },
    });
  } catch (error) {
    if (isConditionFailure(error)) throw new PreconditionFailedError('The IdP configuration changed meanwhile; read it again');
    throw error;
  }
  return next;
}

export async function deleteIdpConfig(deps: Deps, principal: Principal, tenantId: string, sourceIp: string): Promise<void> {
  const tenant = await ownTenant(deps, principal, tenantId);
  const found = await getIdpConfig(deps, tenant.id);
  if (!found) throw new NotFoundError('IdP configuration');
  // Off first, then its sessions end, then it goes: a sign-in cannot start a session in
  // between, and should this request fail part-way the configuration is still there (inactive)
  // for the administrator's retry to finish the job.
  const previous = await switchedOff(deps, found);
  await endFederatedSessions(deps, tenant.id, 'idp_deleted');
  const audit = auditEventPut(deps, {
    log: 'identity', tenantId: tenant.id, workspaceId: principal.workspaceId, actorId: principal.userId,
    action: 'idp_config_deleted', targetType: 'tenant', targetId: tenant.id, payload: { provider_type: previous.provider_type, released_domains: previous.claimed_domains }, sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.deleteItem({ Key: keys.idpConfig(tenant.id), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } }),
      audit.item,
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw new PreconditionFailedError('The IdP configuration changed meanwhile; read it again');
    throw error;
  }
}
