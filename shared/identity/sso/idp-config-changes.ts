/**
 * Creating and changing the tenant IdP configuration: validation of the settings against the
 * stage (https issuers), the SAML metadata parsed, the OIDC client secret envelope-encrypted,
 * the email domains checked to be verified domains of the tenant, the record and its audit
 * event in one transaction (optimistic on `version`).
 * Apart from the reads so that only these two functions hold the envelope key.
 */
import { isoNow } from '../../clock';
import { encryptionContext } from '../../crypto/encryption-contexts';
import { envelopeOf } from '../../crypto/envelope';
import type { Deps } from '../../deps';
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError, type FieldError } from '../../errors';
import { auditEventPut } from '../../audit/audit-log';
import { isConditionFailure } from '../../store/client';
import { getWorkspace } from '../../store/identity-items';
import { keys } from '../../store/keys';
import type { IdpConfigRecord, OidcSettingsRecord, SamlSettingsRecord, TenantRecord } from '../../store/records';
import type { TransactItem } from '../../store/table-client';
import { assertVerifiedDomainsOf } from '../email-domains';
import { endFederatedSessions } from '../sessions';
import type { Principal } from '../principal';
import { getIdpConfig, ownTenant, toIdpConfigView, type IdpConfigView } from './idp-config';
import { parseIdpMetadata } from './saml-idp-metadata';
import { newSpCredential, type SpCredential } from './saml-sp-credentials';
import type { CreateIdpConfigInput, UpdateIdpConfigInput } from './idp-config-schemas';
import { urlProblem } from './sp-endpoints';

/** The fields as they will be after the change, before secrets and metadata are processed. */
interface Desired {
  provider_type: 'oidc' | 'saml';
  active: boolean;
  issuer: string | undefined;
  client_id: string | undefined;
  client_secret: string | undefined;
  saml_metadata: string | undefined;
  email_domains: string[];
  allowed_redirect_uris: string[];
  default_role: IdpConfigRecord['default_role'];
  default_workspace_id: string;
  saml_subject_attribute: string | null;
}

async function buildSettings(deps: Deps, tenant: TenantRecord, desired: Desired, previous: IdpConfigRecord | undefined): Promise<{ oidc: OidcSettingsRecord | null; saml: SamlSettingsRecord | null }> {
  const errors: FieldError[] = [];
  const push = (e: FieldError | undefined) => e && errors.push(e);
  if (desired.issuer !== undefined) push(urlProblem(deps.config, desired.issuer, 'issuer'));
  desired.allowed_redirect_uris.forEach((uri, i) => push(urlProblem(deps.config, uri, `allowed_redirect_uris.${i}`)));

  // OIDC: all three settings, or none. A stored secret is kept unless a new one is given, but
  // only for the same issuer and client: otherwise the next login would send it to whatever
  // token endpoint the new issuer names.
  const sameClient = previous?.oidc !== undefined && previous.oidc !== null && previous.oidc.issuer === desired.issuer && previous.oidc.client_id === desired.client_id;
  const secretKnown = desired.client_secret !== undefined || sameClient;
  const anyOidc = desired.issuer !== undefined || desired.client_id !== undefined || desired.client_secret !== undefined;
  if (anyOidc || desired.provider_type === 'oidc') {
    if (desired.issuer === undefined) errors.push({ path: 'issuer', message: 'is required for OIDC' });
    if (desired.client_id === undefined) errors.push({ path: 'client_id', message: 'is required for OIDC' });
    if (!secretKnown) errors.push({ path: 'client_secret', message: previous?.oidc ? 'is required again when the issuer or client id changes' : 'is required for OIDC' });
  }
  if (desired.provider_type === 'saml' && desired.saml_metadata === undefined) errors.push({ path: 'saml_metadata', message: 'is required for SAML' });
  if (errors.length) throw new ValidationError(errors);

  let saml: SamlSettingsRecord | null = null;
  if (desired.saml_metadata !== undefined) {
    if (previous?.saml?.metadata === desired.saml_metadata) {
      saml = previous.saml;
    } else {
      const idp = parseIdpMetadata(desired.saml_metadata);
      // Tessera's own signing credential outlives changes of the IdP's metadata.
      const credential: SpCredential = previous?.saml
        ? { sp_certificate: previous.saml.sp_certificate, sp_private_key_encrypted: previous.saml.sp_private_key_encrypted, sp_private_key_kms_key_id: previous.saml.sp_private_key_kms_key_id }
        : await newSpCredential(deps, tenant.id, tenant.slug);
      saml = { metadata: desired.saml_metadata, ...idp, ...credential };
    }
  }
  let oidc: OidcSettingsRecord | null = null;
  if (anyOidc || previous?.oidc) {
    const envelope = await envelopeOf(deps);
    oidc =
      desired.client_secret !== undefined
        ? {
            issuer: desired.issuer!,
            client_id: desired.client_id!,
            client_secret_encrypted: await envelope.encrypt(desired.client_secret, encryptionContext('idp_client_secret', { tenant_id: tenant.id })),
            client_secret_kms_key_id: envelope.keyId,
          }
        : { ...previous!.oidc!, issuer: desired.issuer!, client_id: desired.client_id! };
  }
  return { oidc, saml };
}

/** The stored fields that follow from the desired state (all but identity and bookkeeping). */
function configurationFields(desired: Desired, settings: { oidc: OidcSettingsRecord | null; saml: SamlSettingsRecord | null }) {
  return {
    provider_type: desired.provider_type,
    active: desired.active,
    ...settings,
    email_domains: desired.email_domains,
    // Claims are made by verification now (email-domains.ts); kept for the record's shape.
    claimed_domains: [],
    allowed_redirect_uris: desired.allowed_redirect_uris,
    default_role: desired.default_role,
    default_workspace_id: desired.default_workspace_id,
    saml_subject_attribute: desired.saml_subject_attribute,
  };
}

async function checkWorkspace(deps: Deps, tenantId: string, workspaceId: string): Promise<void> {
  if (!(await getWorkspace(deps, tenantId, workspaceId))) throw new ValidationError([{ path: 'default_workspace_id', message: 'is not a workspace of the tenant' }]);
}

async function save(deps: Deps, tenant: TenantRecord, record: IdpConfigRecord, configItem: TransactItem, audit: TransactItem) {
  try {
    await deps.table.transact([configItem, audit]);
  } catch (error) {
    if (isConditionFailure(error)) throw new PreconditionFailedError('The IdP configuration changed meanwhile; read it again');
    throw error;
  }
  return toIdpConfigView(deps, tenant, record);
}

export async function createIdpConfig(deps: Deps, principal: Principal, tenantId: string, input: CreateIdpConfigInput, sourceIp: string): Promise<IdpConfigView> {
  const tenant = await ownTenant(deps, principal, tenantId);
  const workspaceId = input.default_workspace_id ?? principal.workspaceId;
  await checkWorkspace(deps, tenant.id, workspaceId);
  if (await getIdpConfig(deps, tenant.id)) throw new ConflictError('The tenant already has an IdP configuration; change it with PATCH');
  const desired: Desired = {
    provider_type: input.provider_type,
    active: input.active,
    issuer: input.issuer,
    client_id: input.client_id,
    client_secret: input.client_secret,
    saml_metadata: input.saml_metadata,
    email_domains: [...new Set(input.email_domains)],
    allowed_redirect_uris: input.allowed_redirect_uris,
    default_role: input.default_role,
    default_workspace_id: workspaceId,
    saml_subject_attribute: input.saml_subject_attribute ?? null,
  };
  const settings = await buildSettings(deps, tenant, desired, undefined);
  await assertVerifiedDomainsOf(deps, tenant.id, desired.email_domains);
  const now = isoNow(deps.clock);
  const record: IdpConfigRecord = { tenant_id: tenant.id, ...configurationFields(desired, settings), created_at: now, updated_at: now, version: 1 };
  const audit = auditEventPut(deps, {
    log: 'identity', tenantId: tenant.id, workspaceId: principal.workspaceId, actorId: principal.userId,
    action: 'idp_config_created', targetType: 'tenant', targetId: tenant.id,
    payload: { provider_type: record.provider_type, active: record.active, oidc: Boolean(record.oidc), saml: Boolean(record.saml), email_domains: record.email_domains }, sourceIp,
  });
  try {
    return await save(deps, tenant, record, deps.table.putItem({ ...keys.idpConfig(tenant.id), ...record }, { expression: 'attribute_not_exists(PK)' }), audit.item);
  } catch (error) {
    if (error instanceof PreconditionFailedError) throw new ConflictError('The tenant already has an IdP configuration; change it with PATCH');
    throw error;
  }
}

export async function updateIdpConfig(deps: Deps, principal: Principal, tenantId: string, input: UpdateIdpConfigInput, sourceIp: string): Promise<IdpConfigView> {
  const tenant = await ownTenant(deps, principal, tenantId);
  const previous = await getIdpConfig(deps, tenant.id);
  if (!previous) throw new NotFoundError('IdP configuration');
  if (input.default_workspace_id !== undefined) await checkWorkspace(deps, tenant.id, input.default_workspace_id);
  const desired: Desired = {
    provider_type: input.provider_type ?? previous.provider_type,
    active: input.active ?? previous.active,
    issuer: input.issuer ?? previous.oidc?.issuer,
    client_id: input.client_id ?? previous.oidc?.client_id,
    client_secret: input.client_secret,
    saml_metadata: input.saml_metadata ?? previous.saml?.metadata,
    email_domains: input.email_domains ? [...new Set(input.email_domains)] : previous.email_domains,
    allowed_redirect_uris: input.allowed_redirect_uris ?? previous.allowed_redirect_uris,
    default_role: input.default_role ?? previous.default_role,
    default_workspace_id: input.default_workspace_id ?? previous.default_workspace_id,
    // undefined keeps it, null clears it.
    saml_subject_attribute: input.saml_subject_attribute === undefined ? (previous.saml_subject_attribute ?? null) : input.saml_subject_attribute,
  };
  const settings = await buildSettings(deps, tenant, desired, previous);
  // Only the domains this request sends are checked: a listed domain whose verification lapsed
  // later routes nothing, and does not block changes of other fields.
  if (input.email_domains) await assertVerifiedDomainsOf(deps, tenant.id, desired.email_domains);
  const record: IdpConfigRecord = { ...previous, ...configurationFields(desired, settings), updated_at: isoNow(deps.clock), version: previous.version + 1 };
  const audit = auditEventPut(deps, {
    log: 'identity', tenantId: tenant.id, workspaceId: principal.workspaceId, actorId: principal.userId,
    action: 'idp_config_updated', targetType: 'tenant', targetId: tenant.id,
    // Names of the fields changed, never their values when secret.
    payload: { changed: Object.keys(input).filter((k) => input[k as keyof UpdateIdpConfigInput] !== undefined), provider_type: record.provider_type, active: record.active, email_domains: record.email_domains },
    sourceIp,
  });
  const put = deps.table.putItem({ ...keys.idpConfig(tenant.id), ...record }, { expression: 'version = :v', values: { ':v': previous.version } });
  const view = await save(deps, tenant, record, put, audit.item);
  // Inactive: sessions signed in through it end. Every change that leaves it inactive sweeps
  // (finding none after the first), so repeating `active: false` finishes a sweep that failed.
  if (!record.active) await endFederatedSessions(deps, tenant.id, 'idp_deactivated');
  return view;
}

