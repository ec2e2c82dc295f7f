/** The stored shapes of the identity records (snake_case, as on the wire). */
import type { MfaAction, MfaMode, Role } from './identity-enums';

export interface TenantRecord {
  id: string;
  slug: string;
  name: string;
  /** The domains the operator gave at creation (pre-verified); the tenant's domain records are what routes. */
  email_domains: string[];
  created_at: string;
  updated_at: string;
}

/**
 * An email domain a tenant added (`TENANT#<t>` / `EMAIL_DOMAIN#<domain>`). Only a `verified`
 * one holds the `DOMAIN#` routing pointer. `method` says how it was proven: the DNS TXT
 * challenge (re-checked when routing uses it and the last check is old) or the operator's
 * word at tenant creation (never re-checked: there is no record to look for).
 */
export interface EmailDomainRecord {
  tenant_id: string;
  domain: string;
  status: 'pending' | 'verified' | 'failed';
  method: 'dns_txt' | 'operator';
  /** The value the TXT record `_tessera-challenge.<domain>` must hold. */
  verification_value: string;
  verified_at: string | null;
  /** When DNS was last asked (a verify call or a re-check). */
  checked_at: string | null;
  /** What the last failed check found, in words. */
  last_failure: string | null;
  created_at: string;
  updated_at: string;
}

/** Which integrations a tenant may use (set by the operator CLI); no record means all of them. */
export interface TenantLicenseRecord {
  tenant_id: string;
  /** Integration ids; `null` = every integration of the catalog. */
  integrations: string[] | null;
  updated_at: string;
}

export interface UserRecord {
  id: string;
  tenant_id: string;
  email: string;
  /** Optional second login name, lower case, unique in the tenant (a `userUsername` item holds it). */
  username?: string;
  status: 'active' | 'disabled';
  password_hash?: string;
  /** Workspace id → role held there. */
  roles: Record<string, Role>;
  tenant_admin: boolean;
  /** The workspace a login lands in when it names none. */
  default_workspace_id: string;
  mfa_enrolled: boolean;
  /** Provisioned by single sign-on: signs in through the IdP only, never gets a local password. */
  federated?: boolean;
  /** Epoch seconds: access tokens of sign-ins before this are refused (set by a password reset, an admin's email change). */
  sessions_valid_after?: number;
  /**
   * Epoch seconds, set by a password change (or one's own email change): access and refresh tokens of sign-ins before
   * this are refused, except those of the session that made the change (`kept_session_id`).
   */
  other_sessions_valid_after?: number;
  kept_session_id?: string;
  /**
   * Sessions ended by logout: session id (`sid`) → epoch seconds after which every access
   * token of it has expired anyway. Entries past that are dropped on the next write.
   */
  revoked_sessions?: Record<string, number>;
  /** When the user was last enabled again: PATs created before it are refused. */
  pats_valid_after?: string;
  /** When the password was last set (changed or reset): reset links sent before it are void. */
  password_set_at?: string;
  /** When the email last changed: reset links sent before it (to the old address) are void. */
  reset_links_valid_after?: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface WorkspaceRecord {
  id: string;
  tenant_id: string;
  name: string;
  owner_id: string;
  created_at: string;
  updated_at: string;
}

export interface PersonalAccessTokenRecord {
  id: string;
  tenant_id: string;
  user_id: string;
  workspace_id: string;
  name: string;
  token_hash: string;
  scopes: string[];
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** When its use was last audited (token_used); absent until the first use. */
  use_audited_at?: string;
}

export interface RefreshTokenRecord {
  token_hash: string;
  tenant_id: string;
  user_id: string;
  workspace_id: string;
  family_id: string;
  /** The authentication the family started with; refreshed access tokens keep it. */
  amr: string[];
  auth_time: number;
  mfa_at: number | null;
  /** The family began with a sign-in at the tenant's IdP (SSO); absent: with a password. */
  federated?: true;
  /** Never later than `session_expires_at`: refreshing does not slide a session past its end. */
  expires_at: string;
  /**
   * The end of the session (sign-in + `TESSERA_SESSION_MAX_SECONDS`), carried from token to
   * token of the family. Absent on tokens from before it existed: their `auth_time` + the maximum.
   */
  session_expires_at?: string;
  used_at: string | null;
  created_at: string;
}

export interface RefreshFamilyRecord {
  id: string;
  tenant_id: string;
  user_id: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  /** Signed in through the tenant's IdP: the session ends when that configuration is deleted or deactivated. */
  federated?: boolean;
  created_at: string;
}

export interface MfaTransactionRecord {
  token_hash: string;
  tenant_id: string;
  user_id: string;
  workspace_id: string;
  enrollment_required: boolean;
  amr: string[];
  auth_time: number;
  expires_at: string;
  created_at: string;
}

/** A password reset link's token, stored as its digest; deleted when used (single use). */
export interface PasswordResetTokenRecord {
  id: string;
  token_hash: string;
  tenant_id: string;
  user_id: string;
  expires_at: string;
  created_at: string;
}

export interface TotpCredentialRecord {
  id: string;
  user_id: string;
  tenant_id: string;
  type: 'totp';
  secret_encrypted: string;
  secret_kms_key_id: string;
  enabled_at: string | null;
  last_used_at: string | null;
  /** The last accepted RFC 6238 time step: a code of this step or earlier is never accepted again. */
  last_step: number;
  created_at: string;
}

export interface BackupCodeRecord {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

export interface MfaPolicyRecord {
  tenant_id: string;
  mfa_mode: MfaMode;
  required_actions: MfaAction[];
  created_at: string;
  updated_at: string;
}

export interface AuditEventRecord {
  event_id: string;
  tenant_id: string;
  workspace_id: string | null;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  payload: Record<string, unknown>;
  source_ip: string | null;
  created_at: string;
  /** Its place in the log's hash chain (shared/audit/audit-chain.ts), set when it is written. */
  seq: number;
  prev_digest: string | null;
  digest: string;
}

export interface ConnectionSchedule {
  type: 'daily';
  hour: number;
  minute: number;
  /** IANA time zone of hour:minute (canonical name); absent on records made before it existed: UTC. */
  timezone?: string;
}

export interface ConnectionRecord {
  connection_id: string;
  integration_id: string;
  connector_id: string;
  connector_version: string;
  name: string;
  tenant_id: string;
  workspace_id: string;
  scope: Record<string, unknown>;
  schedule: ConnectionSchedule;
  status: 'healthy' | 'degraded' | 'unknown';
  last_run_at: string | null;
  /** Envelope-encrypted under {tenant_id, workspace_id, connection_id}; never returned. */
  configuration_encrypted: string;
  configuration_kms_key_id: string;
  configuration_schema_version: number;
  /** When the schedule fires next (UTC); the due-run index (GSI1) is keyed by it. */
  next_run_at?: string;
  /** The run that is queued or running: at most one per connection (claimed with a condition). */
  active_run_id?: string | null;
  created_at: string;
  updated_at: string;
  /** Optimistic concurrency: the ETag is derived from it. */
  version: number;
}

export interface ConnectionTestRecord {
  test_id: string;
  connection_id: string;
  tenant_id: string;
  workspace_id: string;
  status: 'success' | 'failure';
  checked_at: string;
  remediation: { category: string; message: string; action: string }[];
  created_at: string;
}

export interface IdempotencyRecord {
  state: 'in_flight' | 'completed';
  fingerprint: string;
  status_code: number | null;
  response: unknown;
  created_at: string;
}

// ---- tenant SSO ------------------------------------------------------------------------

export interface OidcSettingsRecord {
  issuer: string;
  client_id: string;
  /** Envelope-encrypted under {tenant_id, purpose: idp_client_secret}; never returned. */
  client_secret_encrypted: string;
  client_secret_kms_key_id: string;
}

export interface SamlSettingsRecord {
  /** The IdP metadata XML as given. */
  metadata: string;
  entity_id: string;
  /** The IdP's SingleSignOnService location for the HTTP-Redirect binding. */
  sso_url: string;
  /** Base64 DER of the IdP's signing certificates. */
  signing_certificates: string[];
  want_authn_requests_signed: boolean;
  /** Tessera's own signing certificate for this tenant (base64 DER), published in the SP metadata. */
  sp_certificate: string;
  /** Its private key (PEM), envelope-encrypted under {tenant_id, purpose: saml_sp_signing_key}. */
  sp_private_key_encrypted: string;
  sp_private_key_kms_key_id: string;
}

export interface IdpConfigRecord {
  tenant_id: string;
  /** The active protocol: exactly one is active even when both are configured. */
  provider_type: 'oidc' | 'saml';
  active: boolean;
  oidc: OidcSettingsRecord | null;
  saml: SamlSettingsRecord | null;
  /** Domains routed to this IdP, each a verified domain of the tenant when listed; JIT provisioning is allowed only for these while they stay verified. */
  email_domains: string[];
  /** Domains this configuration claimed before verification existed; always empty since (claims come from verification). */
  claimed_domains: string[];
  allowed_redirect_uris: string[];
  default_role: Role;
  default_workspace_id: string;
  /** SAML: the attribute that identifies a user when the IdP sends no persistent NameID (absent in records older than the setting). */
  saml_subject_attribute?: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface ExternalIdentityRecord {
  id: string;
  tenant_id: string;
  user_id: string;
  provider_type: 'oidc' | 'saml';
  issuer: string;
  subject: string;
  created_at: string;
}

export interface SsoTransactionRecord {
  state_hash: string;
  tenant_id: string;
  provider_type: 'oidc' | 'saml';
  redirect_uri: string;
  /** OIDC: the ID token must carry it. */
  nonce: string | null;
  /** OIDC: the PKCE verifier, envelope-encrypted under {tenant_id, purpose: sso_pkce, state_hash}. */
  code_verifier_encrypted: string | null;
  /** SAML: the AuthnRequest ID the response must answer (InResponseTo). */
  saml_request_id: string | null;
  /** The client application's own state, echoed on the final redirect. */
  client_state?: string | null;
  /** The client application's PKCE challenge (S256) for the sso_code exchange. */
  client_code_challenge?: string | null;
  /** A link transaction: the signed-in user the IdP identity is to be linked to (no sign-in happens). */
  link_user_id?: string | null;
  expires_at: string;
  created_at: string;
}

export interface SsoCodeRecord {
  code_hash: string;
  tenant_id: string;
  user_id: string;
  workspace_id: string;
  provider_type: 'oidc' | 'saml';
  issuer: string;
  amr: string[];
  acr: string | null;
  auth_time: number;
  mfa_at: number | null;
  jit_provisioned: boolean;
  /** The client's PKCE challenge (S256): the exchange must present its verifier. */
  code_challenge?: string | null;
  expires_at: string;
  created_at: string;
}

// ---- discovery runs and inventory --------------------------------------------------------

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';
export type RunTrigger = 'schedule' | 'manual';
export type TrackStatus = 'pending' | 'done' | 'refused' | 'failed';

export interface RunChangeCounts {
  entities_added: number;
  entities_removed: number;
  entities_changed: number;
  relationships_added: number;
  relationships_removed: number;
}

/**
 * Where a run is: the step it is at, each track's saved cursor, and (after reading) which kind
 * the sweep has reached. Stored in the run record; a step reads it and commits the next one
 * with a condition on `step`, so a step runs to completion at most once.
 */
export interface RunProgress {
  step: number;
  phase: 'read' | 'sweep' | 'done';
  tracks: Record<string, { status: TrackStatus; cursor: unknown; pages: number }>;
  /**
   * Sweep position: the stage (entities, then relationships) and, per range of stored items
   * (`<kind> <inventory shard>`) begun in it, the cursor reached or `done`.
   */
  sweep: { stage: number; ranges: Record<string, Record<string, unknown> | 'done'> };
  /** Counted as steps commit. */
  changes: RunChangeCounts;
  counts: { entities: Record<string, number>; relationships: Record<string, number> };
  stats: { provider_requests: number; throttled_ms: number; items_written: number; items_deleted: number };
  /** What the provider last said of its rate-limit buckets (remaining, reset): the next step starts from it. */
  pacing?: Record<string, { remaining?: number; resetAtMs?: number; retryAtMs?: number }>;
  /** Entities of each track this run saw, counted when the sweep begins (the mass-removal guard's figure). */
  track_entities?: Record<string, number>;
  /** Tracks the mass-removal guard kept from being swept: the last complete count and this run's. */
  held?: Record<string, { before: number; now: number }>;
  /** Relationships refused because the run did not observe one of their ends. */
  dangling?: number;
  /** The sweep's linking stage (edge-linking.ts): the held-relationship part reached, or `done`. */
  linking?: Record<string, unknown> | 'done';
}

export type PublicTrackStatus = 'pending' | 'reading' | 'done' | 'refused';

/** A run's progress as the API shows it (shared/runs/run-progress.ts). */
export interface RunProgressView {
  phase: 'reading' | 'sweeping' | 'finalizing';
  requests: number;
  pages: number;
  items_written: number;
  throttled_seconds: number;
  tracks: Record<string, { status: PublicTrackStatus; pages: number }>;
}

/** A refresh written during a step: it counts only while the checkpoint is still at `step`. */
export interface RunLiveProgress extends RunProgressView {
  step: number;
}

export interface RunRecord {
  run_id: string;
  connection_id: string;
  tenant_id: string;
  workspace_id: string;
  integration_id: string;
  trigger: RunTrigger;
  /** For scheduled runs, the slot it ran for (the connection's next_run_at it claimed). */
  slot: string | null;
  status: RunStatus;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  errors: { category: string; message: string; action: string }[];
  progress: RunProgress;
  /** Resumes by the stalled-run recovery; a run that keeps stalling is failed. */
  recoveries: number;
  actor_id: string | null;
  /** The latest refresh of the progress during a step. */
  live_progress?: RunLiveProgress;
  /** Started with `confirm_removals`: the mass-removal guard lets this run's drops through. */
  confirm_removals?: boolean;
}

/** [attribute, before, after]: one thing a changed entity says differently (shared/runs/attribute-changes.ts). */
export type AttributeChange = [attribute: string, before: string | null, after: string | null];

export type ChangeEntry =
  /** [change, kind, entity_id, source_id] */
  | ['added' | 'removed' | 'changed', string, string, string]
  /** [change, kind, entity_id, source_id, what changed]: a changed entity whose earlier content was read */
  | ['changed', string, string, string, AttributeChange[]]
  /** [change, kind, from_entity_id, from_source_id, to_entity_id, to_source_id] */
  | ['added' | 'removed', string, string, string, string, string];

export interface InventoryEntityRecord {
  entity_id: string;
  kind: string;
  source_id: string;
  display_name: string;
  attributes: Record<string, unknown>;
  /** The track that lists this entity completely (removal waits for it). */
  track: string;
  /** Content digest: an unchanged entity is never written again. */
  digest: string;
  first_seen_at: string;
  /** When its content last changed (first_seen_at until then). */
  changed_at: string;
  /** The run and step that added or last changed it: a retried step recognises its own writes. */
  written_run: string;
  written_step: number;
  written_change: 'added' | 'changed';
  /** What that run changed (with `written_change: 'changed'`): a retried step reports it again. */
  written_attribute_changes?: AttributeChange[];
  /** Set once the entity has its prefix-search entries (shared/runs/entity-search.ts); entities stored before get them when next seen. */
  searchable?: true;
}

export interface InventoryRelationshipRecord {
  kind: string;
  from_entity_id: string;
  to_entity_id: string;
  from_source_id: string;
  to_source_id: string;
  track: string;
  first_seen_at: string;
  written_run: string;
  written_step: number;
}

/**
 * The public half of a JWT signing key, published for verifiers (`SIGNING_KEYS` / `KID#<kid>`).
 * A `next` key verifies before anything signs with it; a `retiring` one until `expires_at`
 * (then DynamoDB's TTL removes it). Never the private key.
 */
export interface PublishedSigningKeyRecord {
  kid: string;
  public_jwk: { kty: string; crv: string; x: string };
  status: 'next' | 'current' | 'retiring';
  published_at: string;
  /** Set when the key starts retiring: tokens it signed, and warm issuers still holding it, are covered until then. */
  expires_at: string | null;
}
