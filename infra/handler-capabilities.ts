/**
 * What a handler's function needs beyond the baseline that every function gets (read/write on
 * the table, its own log group).
 *
 * These are facts about the code a handler imports, not about the API, so they live here and
 * not in the route table; test/infra/handler-capabilities.test.ts bundles every handler with
 * esbuild and fails when these sets and the code disagree (in either direction), so a new
 * route that hashes passwords or touches encrypted secrets cannot ship without its grant, and
 * a grant cannot outlive the code that needed it.
 */

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
  'audit-events-list',
  'connection-entities-list',
  'connection-relationships-list',
  'connection-run-changes-list',
  'connection-runs-list',
  'connection-tests-list',
  'connections-list',
  'me-federated-identities-list',
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
  'users-create',
]);

/**
 * Handlers that encrypt or decrypt with the envelope key (TOTP secrets, connection
 * configurations, IdP client secrets): granted `kms:Encrypt`, `kms:Decrypt`, `kms:GenerateDataKey`.
 */
export const envelopeEncryptionHandlers: ReadonlySet<string> = new Set([
  'connections-create',
  'connections-update',
  'connections-test',
  'mfa-enroll-start',
  'mfa-enroll-confirm',
  'mfa-challenge',
  // tenant SSO: the IdP client secret (encrypted when written, decrypted for discovery and the
  // code exchange) and the PKCE verifier of a login in flight
  'idp-create',
  'idp-update',
  'sso-start',
  'me-federated-identity-link', // an SSO login with a link intent: its PKCE verifier too
  'sso-callback',
  'sso-callback-post',
]);

/**
 * Handlers that decrypt with the envelope key and never encrypt, and only ciphertexts whose
 * encryption context has exactly these keys: granted `kms:Decrypt` alone, conditioned on the
 * context keys, so the run worker can open connection configurations and nothing else (not a
 * TOTP secret, not an IdP client secret).
 */
export const envelopeDecryptOnlyHandlers: ReadonlyMap<string, readonly string[]> = new Map([
  ['run-worker', ['tenant_id', 'workspace_id', 'connection_id']],
]);

/**
 * Handlers whose bundle carries the SQS client (`@aws-sdk/client-sqs`, through
 * `shared/runs/run-queue.ts`): they queue run steps or purges, and get `sqs:SendMessage` on the
 * run queue and its URL.
 */
export const runQueueSendingHandlers: ReadonlySet<string> = new Set([
  'connection-runs-create',
  'connections-delete',
  'run-worker',
  'run-dispatcher',
]);

export const RUN_QUEUE_CLIENT_MODULE = '@aws-sdk/client-sqs';

/**
 * Handlers whose bundle carries the SES client (`@aws-sdk/client-sesv2`, through
 * `shared/email/create-email-sender.ts`): granted `ses:SendEmail` from the sender's identity.
 */
export const emailSendingHandlers: ReadonlySet<string> = new Set([
  'auth-password-forgot',
]);

/** The npm package whose presence in a bundle means the function sends email. */
export const EMAIL_CLIENT_MODULE = '@aws-sdk/client-sesv2';

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
