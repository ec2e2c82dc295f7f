/**
 * The capability lists of infra/handler-capabilities.ts agree with the code. Every handler is
 * bundled with esbuild (packages left external, so this takes well under a second) and its
 * metafile says what the function really contains:
 * - the bundle imports `@node-rs/argon2` ⇔ the handler is in `passwordHashingHandlers`
 *   (otherwise the Lambda bundle would miss the arm64 native module, or carry it for nothing);
 * - the bundle contains the SES client (`shared/aws/sesv2-client.ts`) ⇔ the handler is in `emailSendingHandlers`
 *   (its `ses:SendEmail` grant);
 * - the bundle imports the SAML schema validator ⇔ the handler is in `samlSchemaValidatorHandlers`
 *   (its wasm, worker and XSD files must ship beside the bundle);
 * - the bundle imports the Encryption SDK (through `envelopeOf` of `shared/crypto/envelope.ts`)
 *   ⇔ the handler is in `envelopeKeyUses` (its KMS grant); and the envelope calls in its
 *   bundle's code, each with the kind of encryption context it builds in place
 *   (`encryptionContext('<kind>', …)`), are exactly the encrypts and decrypts listed for it, so
 *   its KMS statements (one action per operation, conditioned per kind) match what it does;
 * - the bundle contains the SQS sender (`shared/runs/sqs-run-queue.ts`) ⇔ the handler is in `runQueueSendingHandlers`
 *   (its `sqs:SendMessage` grant on the run queue);
 * - the bundle contains the S3 audit anchor (`shared/audit/s3-audit-anchor.ts`) and the handler may write
 *   the table ⇔ the handler is in `auditAppendingHandlers` (its `s3:PutObject` on the anchor
 *   bucket); a table-read-only handler may carry it, never append;
 * - the bundle contains the private signing seed reader (`shared/crypto/signing-seeds.ts`) ⇔
 *   the handler is in `tokenIssuingHandlers` (its read access to the signing secret).
 * - the bundle contains the connector registry (`shared/connectors/connector-registry.ts`) ⇔ the
 *   handler is in `providerCallingHandlers` (the bench's cold-start class of provider callers).
 * - the bundle contains the export job (`shared/exports/export-job.ts`) ⇔ the handler is in
 *   `exportWritingHandlers` (its s3:PutObject on the exports bucket), and the export content
 *   (`shared/exports/export-content.ts`) ⇔ `exportReadingHandlers` (its s3:GetObject there).
 * Job handlers (functions/jobs.ts) are checked like route handlers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { functionHandlers } from '../../functions/handlers';
import {
  CONNECTOR_REGISTRY_MODULE,
  AUDIT_ANCHOR_CLIENT_MODULE,
  CURSOR_KEYS_MODULE,
  EMAIL_CLIENT_MODULE,
  EXPORT_CONTENT_MODULE,
  EXPORT_JOB_MODULE,
  PASSWORD_NATIVE_MODULE,
  RUN_QUEUE_CLIENT_MODULE,
  SAML_SCHEMA_VALIDATOR_MODULE,
  SIGNING_SEED_MODULE,
  auditAppendingHandlers,
  cursorSealingHandlers,
  emailSendingHandlers,
  envelopeKeyUses,
  exportReadingHandlers,
  exportWritingHandlers,
  passwordHashingHandlers,
  providerCallingHandlers,
  runQueueSendingHandlers,
  samlSchemaValidatorHandlers,
  tableReadOnlyHandlers,
  tokenIssuingHandlers,
} from '../../infra/handler-capabilities';
import { bundleHandlerGraphs, type HandlerGraph } from '../support/handler-graphs';

/** A package of the Encryption SDK; `shared/crypto/envelope-encryption-sdk.ts` is its one importer. */
const ENVELOPE_SDK_MODULE = '@aws-crypto/encrypt-node';

/**
 * Every `.encrypt(…)` / `.decrypt(…)` call in a bundle's own code (packages are left out, so
 * these are envelope calls), as `encrypt:<kind>`: the kind is read from the
 * `encryptionContext("<kind>", …)` among its arguments, `?` when there is none or several.
 */
function envelopeCallsOf(code: string): string[] {
  const calls = new Set<string>();
  for (const call of code.matchAll(/\.(encrypt|decrypt)\(/g)) {
    const open = call.index + call[0].length - 1;
    let depth = 0;
    let close = open;
    for (; close < code.length; close++) {
      if (code[close] === '(') depth++;
      else if (code[close] === ')' && --depth === 0) break;
    }
    const kinds = [...code.slice(open, close).matchAll(/\bencryptionContext\d*\(\s*"([a-z_]+)"/g)].map((k) => k[1]);
    calls.add(`${call[1]}:${kinds.length === 1 ? kinds[0] : '?'}`);
  }
  return [...calls].sort();
}

const listedCallsOf = (handler: string): string[] => {
  const use = envelopeKeyUses.get(handler);
  return use ? [...use.encrypts.map((k) => `encrypt:${k}`), ...use.decrypts.map((k) => `decrypt:${k}`)].sort() : [];
};

const handlers = functionHandlers;

const bundleHandlers = () => bundleHandlerGraphs(handlers);


describe('handler capabilities', () => {
  let bundles: HandlerGraph[];

  beforeAll(async () => {
    bundles = await bundleHandlers();
  });

  it('ships the Argon2 native module exactly to the handlers whose bundle imports it', () => {
    const importing = bundles.filter((b) => b.packages.includes(PASSWORD_NATIVE_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => passwordHashingHandlers.has(h));
    expect(listed, `infra/handler-capabilities.ts passwordHashingHandlers must be exactly the handlers that import ${PASSWORD_NATIVE_MODULE}`).toEqual(importing);
  });

  it('grants ses:SendEmail exactly to the handlers whose bundle carries the SES client', () => {
    const importing = bundles.filter((b) => b.inputs.includes(EMAIL_CLIENT_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => emailSendingHandlers.has(h));
    expect(importing.length, 'at least one handler sends email').toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts emailSendingHandlers must be exactly the handlers whose bundle contains ${EMAIL_CLIENT_MODULE}`).toEqual(importing);
  });

  it('counts as provider callers exactly the handlers whose bundle carries the connector registry', () => {
    const carrying = bundles.filter((b) => b.inputs.includes(CONNECTOR_REGISTRY_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => providerCallingHandlers.has(h));
    expect(carrying.length, 'at least one handler calls providers').toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts providerCallingHandlers must be exactly the handlers whose bundle holds ${CONNECTOR_REGISTRY_MODULE}`).toEqual(carrying);
  });

  it('ships the SAML schema validator exactly to the handlers whose bundle imports it', () => {
    const importing = bundles.filter((b) => b.packages.includes(SAML_SCHEMA_VALIDATOR_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => samlSchemaValidatorHandlers.has(h));
    expect(importing.length).toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts samlSchemaValidatorHandlers must be exactly the handlers that import ${SAML_SCHEMA_VALIDATOR_MODULE}`).toEqual(importing);
  });

  it('grants the envelope key exactly to the handlers whose bundle carries the Encryption SDK, and each of them uses it', () => {
    const carrying = bundles.filter((b) => b.packages.includes(ENVELOPE_SDK_MODULE)).map((b) => b.handler);
    const using = bundles.filter((b) => envelopeCallsOf(b.code).length > 0).map((b) => b.handler);
    const listed = handlers.filter((h) => envelopeKeyUses.has(h));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed, `envelopeKeyUses must be exactly the handlers whose bundle imports ${ENVELOPE_SDK_MODULE}`).toEqual(carrying);
    expect(using, 'a handler carries the Encryption SDK without encrypting or decrypting with it').toEqual(carrying);
  });

  it('lists for each handler exactly the encrypts and decrypts its code makes, by kind of encryption context', () => {
    for (const bundle of bundles) {
      expect(envelopeCallsOf(bundle.code), `${bundle.handler}: envelopeKeyUses must match the envelope calls in its bundle (\`?\` is a call whose context is not built in place with encryptionContext)`).toEqual(listedCallsOf(bundle.handler));
    }
    // The run worker opens connection configurations and nothing else, and never encrypts.
    expect(listedCallsOf('run-worker')).toEqual(['decrypt:connection_configuration']);
  });

  it('grants sqs:SendMessage on the run queue exactly to the handlers whose bundle carries the SQS client', () => {
    const importing = bundles.filter((b) => b.inputs.includes(RUN_QUEUE_CLIENT_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => runQueueSendingHandlers.has(h));
    expect(importing.length).toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts runQueueSendingHandlers must be exactly the handlers whose bundle contains ${RUN_QUEUE_CLIENT_MODULE}`).toEqual(importing);
  });

  it('grants s3:PutObject on the audit anchor exactly to the handlers that carry its client and may write the table', () => {
    const carrying = bundles.filter((b) => b.inputs.includes(AUDIT_ANCHOR_CLIENT_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => auditAppendingHandlers.has(h));
    expect(listed.length, 'at least one handler appends to an audit chain').toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts auditAppendingHandlers must be exactly the handlers whose bundle contains ${AUDIT_ANCHOR_CLIENT_MODULE} and are not table-read-only`).toEqual(carrying.filter((h) => !tableReadOnlyHandlers.has(h)));
    // The writers the README names append: sign-in, user management, connections, the run worker.
    for (const writer of ['auth-login', 'users-create', 'connections-create', 'run-worker']) expect(listed).toContain(writer);
    for (const other of ['health', 'jwks', 'me-get', 'audit-events-list']) expect(listed).not.toContain(other);
  });

  it('grants the exports bucket exactly to the handlers that write export files (the job) or sign their URLs (the content route)', () => {
    for (const [module, listedSet, what] of [
      [EXPORT_JOB_MODULE, exportWritingHandlers, 'exportWritingHandlers'],
      [EXPORT_CONTENT_MODULE, exportReadingHandlers, 'exportReadingHandlers'],
    ] as const) {
      const carrying = bundles.filter((b) => b.inputs.includes(module)).map((b) => b.handler);
      expect(carrying.length, `at least one handler carries ${module}`).toBeGreaterThan(0);
      expect(handlers.filter((h) => listedSet.has(h)), `infra/handler-capabilities.ts ${what} must be exactly the handlers whose bundle contains ${module}`).toEqual(carrying);
    }
    // Neither the request nor the status read touches the bucket.
    for (const other of ['exports-create', 'exports-get']) expect([...exportWritingHandlers, ...exportReadingHandlers]).not.toContain(other);
  });

  it('lets exactly the token-issuing handlers carry the private signing seed reader', () => {
    const carrying = bundles.filter((b) => b.inputs.includes(SIGNING_SEED_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => tokenIssuingHandlers.has(h));
    expect(carrying.length, 'at least one handler issues tokens').toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts tokenIssuingHandlers must be exactly the handlers whose bundle contains ${SIGNING_SEED_MODULE}`).toEqual(carrying);
    // Verifying needs no secret: the routes every caller uses do not sign.
    for (const verifier of ['jwks', 'me-get', 'health', 'connections-get']) expect(carrying, verifier).not.toContain(verifier);
  });

  it('lets exactly the list handlers carry the cursor key reader', () => {
    const carrying = bundles.filter((b) => b.inputs.includes(CURSOR_KEYS_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => cursorSealingHandlers.has(h));
    expect(carrying.length, 'at least one handler pages').toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts cursorSealingHandlers must be exactly the handlers whose bundle contains ${CURSOR_KEYS_MODULE}`).toEqual(carrying);
  });

  it('names only handlers of the route and job tables', () => {
    const known = new Set(handlers);
    const named = [...tokenIssuingHandlers, ...passwordHashingHandlers, ...envelopeKeyUses.keys(), ...tableReadOnlyHandlers, ...emailSendingHandlers, ...samlSchemaValidatorHandlers, ...runQueueSendingHandlers, ...cursorSealingHandlers, ...auditAppendingHandlers, ...exportWritingHandlers, ...exportReadingHandlers];
    expect(named.filter((h) => !known.has(h))).toEqual([]);
  });

  it('follows the project import graph (sanity: the analysis is not vacuous)', () => {
    for (const bundle of bundles) expect(bundle.inputs.length).toBeGreaterThan(1);
    expect(bundles.some((b) => b.inputs.includes('shared/crypto/envelope.ts'))).toBe(true);
  });
});
