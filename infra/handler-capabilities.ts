/**
 * What a handler's function needs beyond the baseline that every function gets (its own log
 * group; item reads on the table unless it is in `tableFreeHandlers`, item writes unless it is
 * in `tableReadOnlyHandlers` too).
 *
 * These are facts about the code a handler imports, not about the API, so they live here and
 * not in the route table; test/infra/handler-capabilities.test.ts bundles every handler with
 * esbuild and fails when these sets and the code disagree (in either direction), so a new
 * route that hashes passwords or touches encrypted secrets cannot ship without its grant, and
 * a grant cannot outlive the code that needed it.
 */
import type { EncryptionContextKind } from '../shared/crypto/encryption-contexts';

/**
 * Handlers that never write the table: their roles get the item reads alone. Many GETs do
 * write (the per-IP limit of the auth routes, audit events, last-use stamps), so this is a
 * list of what the code does, not of methods: test/api/read-only-handlers.test.ts calls each
 * one's routes through the local host with every DynamoDB write refused, and fails when one
 * writes.
 */
export const tableReadOnlyHandlers: ReadonlySet<string> = new Set([
  'access-changes-list',
  'audit-events-list',
  'connection-entities-list',
  'connection-entity-get',
  'connection-relationships-list',
  'connection-run-changes-list',
  'connection-runs-get',
  'connection-runs-list',
  'connection-tests-list',
  'connections-get',
  'connections-list',
  'domains-list',
  'entity-access-list',
  'exports-content',
  'exports-get',
  'health',
  'idp-get',
  'integrations-list',
  'jwks',
  'me-federated-identities-list',
  'me-get',
  'mfa-policy-get',
  'openapi',
  'people-get',
  'people-list',
  'permissions-list',
  'person-access-list',
  'sso-metadata',
  'tenant-audit-events-list',
  'tokens-list',
  'user-federated-identities-list',
  'users-get',
  'users-list',
  'workspaces-list',
]);

/**
 * Handlers that never touch the table: their roles get no DynamoDB action at all, not even the
 * reads every other function gets. The `$default` route's function answers from the route table
 * alone, for anyone who sends anything; test/api/read-only-handlers.test.ts calls it with every
 * table call refused.
 */
export const tableFreeHandlers: ReadonlySet<string> = new Set(['route-not-found']);

/**
 * Handlers that sign access tokens: their bundle carries the reader of the private signing seed
 * (`SIGNING_SEED_MODULE`), and only their roles get `secretsmanager:GetSecretValue` on the
 * signing secret. Every other function verifies with the published public keys.
 */
export const tokenIssuingHandlers: ReadonlySet<string> = new Set([
  'auth-login',
  'auth-token',
  'mfa-challenge',
  'mfa-enroll-confirm',
]);

/**
 * Handlers of list routes (`listEndpoint`): their bundle carries the cursor key reader
 * (`CURSOR_KEYS_MODULE`), and only their roles get `secretsmanager:GetSecretValue` on the
 * cursor secret.
 */
export const cursorSealingHandlers: ReadonlySet<string> = new Set([
  'access-changes-list',
  'audit-events-list',
  'connection-entities-list',
  'connection-relationships-list',
  'connection-run-changes-list',
  'connection-runs-list',
  'connection-tests-list',
  'connections-list',
  'entity-access-list',
  'me-federated-identities-list',
  'people-list',
  'person-access-list',
  'tenant-audit-events-list',
  'tokens-list',
  'user-federated-identities-list',
  'users-list',
  'workspaces-list',
]);

/** The project module that reads the cursor secret. */
export const CURSOR_KEYS_MODULE = 'shared/crypto/cursor-keys.ts';

/** The project module that reads the private signing seed. */
export const SIGNING_SEED_MODULE = 'shared/crypto/signing-seeds.ts';

/**
 * Handlers whose bundle imports `@node-rs/argon2` (password hashing): it is shipped as a
 * native module for arm64 (in the stack's layer of shared packages, infra/bundle-options.ts
 * `LAYER_PACKAGES`), and the function gets more memory.
 */
export const passwordHashingHandlers: ReadonlySet<string> = new Set([
  'auth-login',
  'auth-password-reset',
  'me-password',
  'mfa-enroll-start',
  'users-create',
]);

/** What one function does with the envelope key, by kind of secret (`shared/crypto/encryption-contexts.ts`). */
export interface EnvelopeKeyUse {
  encrypts: readonly EncryptionContextKind[];
  decrypts: readonly EncryptionContextKind[];
}

/**
 * Handlers that encrypt or decrypt with the envelope key, and which kinds of secret: each gets
 * `kms:GenerateDataKey` for the kinds it encrypts and `kms:Decrypt` for those it decrypts, each
 * conditioned on that kind's encryption-context keys (never `kms:Encrypt`: the Encryption SDK's
 * KMS keyring calls it only for keys beyond the generator, and there is one key). The run worker
 * can thus open connection configurations and nothing else, not a TOTP secret, not an IdP
 * client secret. test/infra/handler-capabilities.test.ts reads every encrypt and decrypt call
 * (and the context kind it passes) out of each handler's bundle and fails when this map and
 * the code disagree in either direction.
 */
export const envelopeKeyUses: ReadonlyMap<string, EnvelopeKeyUse> = new Map<string, EnvelopeKeyUse>([
  ['connections-create', { encrypts: ['connection_configuration'], decrypts: [] }],
  ['connections-update', { encrypts: ['connection_configuration'], decrypts: [] }],
  ['connections-test', { encrypts: [], decrypts: ['connection_configuration'] }],
  ['run-worker', { encrypts: [], decrypts: ['connection_configuration'] }],
  ['mfa-enroll-start', { encrypts: ['totp_secret'], decrypts: [] }],
  ['mfa-enroll-confirm', { encrypts: [], decrypts: ['totp_secret'] }],
  ['mfa-challenge', { encrypts: [], decrypts: ['totp_secret'] }],
  // tenant SSO: the IdP client secret and the SAML SP signing key, written with the IdP config
  // and read for the login; the PKCE verifier of a login in flight
  ['idp-create', { encrypts: ['idp_client_secret', 'saml_sp_signing_key'], decrypts: [] }],
  ['idp-update', { encrypts: ['idp_client_secret', 'saml_sp_signing_key'], decrypts: [] }],
  ['sso-start', { encrypts: ['sso_pkce_verifier'], decrypts: ['idp_client_secret', 'saml_sp_signing_key', 'sso_pkce_verifier'] }],
  ['me-federated-identity-link', { encrypts: ['sso_pkce_verifier'], decrypts: ['idp_client_secret', 'saml_sp_signing_key', 'sso_pkce_verifier'] }],
  ['sso-callback', { encrypts: ['sso_pkce_verifier'], decrypts: ['idp_client_secret', 'sso_pkce_verifier'] }],
  ['sso-callback-post', { encrypts: ['sso_pkce_verifier'], decrypts: ['idp_client_secret', 'sso_pkce_verifier'] }],
]);

/**
 * Handlers whose bundle carries the SQS sender (`shared/runs/sqs-run-queue.ts`, through
 * `shared/runs/run-queue.ts`): they queue run steps or purges, and get `sqs:SendMessage` on the
 * run queue and its URL.
 */
export const runQueueSendingHandlers: ReadonlySet<string> = new Set([
  'connection-runs-create',
  'connections-delete',
  'exports-create',
  'run-worker',
  'run-dispatcher',
]);

/** The module whose presence in a bundle means the function sends to the run queue. */
export const RUN_QUEUE_CLIENT_MODULE = 'shared/runs/sqs-run-queue.ts';

/**
 * Handlers whose bundle carries the SES client (`shared/aws/sesv2-client.ts`, through
 * `shared/email/create-email-sender.ts`): granted `ses:SendEmail` from the sender's identity.
 */
export const emailSendingHandlers: ReadonlySet<string> = new Set([
  'auth-password-forgot',
  'users-update',
]);

/** The module whose presence in a bundle means the function sends email. */
export const EMAIL_CLIENT_MODULE = 'shared/aws/sesv2-client.ts';

/** The npm package holding the native module. */
export const PASSWORD_NATIVE_MODULE = '@node-rs/argon2';

/**
 * Handlers whose bundle imports the SAML schema validator (xmllint compiled to WebAssembly): it
 * loads its `.wasm` file, its worker script and the SAML XSDs from its package folder at run
 * time, so it ships beside the bundle rather than inside it.
 */
export const samlSchemaValidatorHandlers: ReadonlySet<string> = new Set([
  'sso-callback-post',
]);

export const SAML_SCHEMA_VALIDATOR_MODULE = '@authenio/samlify-xmllint-wasm';

/**
 * Handlers whose bundle carries the provider connectors (`CONNECTOR_REGISTRY_MODULE`, the one way
 * to them): they call Okta, AWS and Azure with a connection's credentials. Creating or editing a
 * connection validates its configuration without them.
 */
export const providerCallingHandlers: ReadonlySet<string> = new Set([
  'connections-test',
  'run-worker',
]);

export const CONNECTOR_REGISTRY_MODULE = 'shared/connectors/connector-registry.ts';

/**
 * Handlers that append to an audit chain: after each commit they record the chain's head in the
 * audit anchor (`shared/audit/create-audit-anchor.ts`), in AWS an Object Lock bucket, and get
 * `s3:PutObject` on its objects (never a delete). The S3 anchor is in the bundle of every
 * function that carries the audit writer; the table-read-only ones among them never append (their
 * role cannot commit an event), so they carry it without the grant. The capability test checks
 * this list is exactly the carriers that may write the table.
 */
export const auditAppendingHandlers: ReadonlySet<string> = new Set([
  'auth-discover',
  'auth-login',
  'auth-logout',
  'auth-password-forgot',
  'auth-password-reset',
  'auth-token',
  'connection-runs-create',
  'connections-create',
  'connections-delete',
  'connections-test',
  'connections-update',
  'domains-create',
  'domains-delete',
  'domains-verify',
  'exports-create',
  'idp-create',
  'idp-delete',
  'idp-update',
  'me-federated-identity-link',
  'me-password',
  'mfa-backup-codes-regen',
  'mfa-challenge',
  'mfa-enroll-confirm',
  'mfa-enroll-start',
  'mfa-policy-update',
  'run-dispatcher',
  'run-worker',
  'sso-callback',
  'sso-callback-post',
  'tokens-create',
  'tokens-revoke',
  'tokens-rotate',
  'user-federated-identity-unlink',
  'users-create',
  'users-disable',
  'users-enable',
  'users-mfa-reset',
  'users-update',
  'workspaces-create',
  'workspaces-owner-transfer',
]);

/** The module whose presence in a bundle means the function carries the audit anchor's S3 writer. */
export const AUDIT_ANCHOR_CLIENT_MODULE = 'shared/audit/s3-audit-anchor.ts';

/**
 * Handlers whose bundle carries the export job (`EXPORT_JOB_MODULE`): the run worker, which
 * writes export files, and gets `s3:PutObject` and `s3:AbortMultipartUpload` on the exports
 * bucket's objects (a multipart upload is PutObject's to IAM), nothing else of it.
 */
export const exportWritingHandlers: ReadonlySet<string> = new Set(['run-worker']);

export const EXPORT_JOB_MODULE = 'shared/exports/export-job.ts';

/**
 * Handlers whose bundle answers an export's file (`EXPORT_CONTENT_MODULE`): in AWS they sign a
 * GET URL, which works only if their own role may `s3:GetObject` the exports bucket's objects.
 */
export const exportReadingHandlers: ReadonlySet<string> = new Set(['exports-content']);

export const EXPORT_CONTENT_MODULE = 'shared/exports/export-content.ts';
