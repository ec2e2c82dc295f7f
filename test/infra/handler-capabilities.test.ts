/**
 * The capability lists of infra/handler-capabilities.ts agree with the code. Every handler is
 * bundled with esbuild (packages left external, so this takes well under a second) and its
 * metafile says what the function really contains:
 * - the bundle imports `@node-rs/argon2` ⇔ the handler is in `passwordHashingHandlers`
 *   (otherwise the Lambda bundle would miss the arm64 native module, or carry it for nothing);
 * - the bundle imports `@aws-sdk/client-sesv2` ⇔ the handler is in `emailSendingHandlers`
 *   (its `ses:SendEmail` grant);
 * - the bundle imports the SAML schema validator ⇔ the handler is in `samlSchemaValidatorHandlers`
 *   (its wasm, worker and XSD files must ship beside the bundle);
 * - the bundle imports the Encryption SDK (through `envelopeOf` of `shared/crypto/envelope.ts`)
 *   ⇔ the handler is in `envelopeEncryptionHandlers` or, when it only ever decrypts,
 *   `envelopeDecryptOnlyHandlers` (its KMS grant); and a module in its bundle does call
 *   `encrypt(`/`decrypt(` on it, so no function carries the SDK for nothing;
 * - the bundle imports `@aws-sdk/client-sqs` ⇔ the handler is in `runQueueSendingHandlers`
 *   (its `sqs:SendMessage` grant on the run queue);
 * - the bundle contains the private signing seed reader (`shared/crypto/signing-seeds.ts`) ⇔
 *   the handler is in `tokenIssuingHandlers` (its read access to the signing secret).
 * Job handlers (functions/jobs.ts) are checked like route handlers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobList } from '../../functions/jobs';
import { routeList } from '../../functions/routes';
import {
  CURSOR_KEYS_MODULE,
  EMAIL_CLIENT_MODULE,
  PASSWORD_NATIVE_MODULE,
  RUN_QUEUE_CLIENT_MODULE,
  SAML_SCHEMA_VALIDATOR_MODULE,
  SIGNING_SEED_MODULE,
  cursorSealingHandlers,
  emailSendingHandlers,
  envelopeDecryptOnlyHandlers,
  envelopeEncryptionHandlers,
  passwordHashingHandlers,
  runQueueSendingHandlers,
  samlSchemaValidatorHandlers,
  tokenIssuingHandlers,
} from '../../infra/handler-capabilities';
import { projectRoot } from '../../infra/bundle-options';
import { bundleHandlerGraphs, type HandlerGraph } from '../support/handler-graphs';

/** Modules that define the envelope crypto rather than use it. */
const ENVELOPE_PLUMBING = new Set(['shared/crypto/envelope.ts', 'shared/crypto/envelope-encryption-sdk.ts']);
/** A package of the Encryption SDK; `shared/crypto/envelope-encryption-sdk.ts` is its one importer. */
const ENVELOPE_SDK_MODULE = '@aws-crypto/encrypt-node';
// `envelope.encrypt(` on a local of that name, or `(await envelopeOf(deps)).encrypt(`.
const ENVELOPE_CALL = /(\benvelope|\benvelopeOf\([^)]*\)\))\s*\.\s*(encrypt|decrypt)\b/;
const ENCRYPT_CALL = /(\benvelope|\benvelopeOf\([^)]*\)\))\s*\.\s*encrypt\b/;

const handlers = [...new Set([...routeList.map((r) => r.handler), ...jobList.map((j) => j.handler)])].sort();

const bundleHandlers = () => bundleHandlerGraphs(handlers);

const transpiled = new Map<string, Promise<string>>();
function codeOf(file: string): Promise<string> {
  let code = transpiled.get(file);
  if (!code) {
    // Transpiled first, so comments and type-only code cannot match.
    code = transform(readFileSync(path.join(projectRoot, file), 'utf8'), { loader: 'ts' }).then((out) => out.code);
    transpiled.set(file, code);
  }
  return code;
}
const moduleCallsEnvelope = async (file: string) => ENVELOPE_CALL.test(await codeOf(file));
const ownFiles = (bundle: HandlerGraph) => bundle.inputs.filter((f) => !ENVELOPE_PLUMBING.has(f) && !f.startsWith('node_modules/'));

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
    const importing = bundles.filter((b) => b.packages.includes(EMAIL_CLIENT_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => emailSendingHandlers.has(h));
    expect(importing.length, 'at least one handler sends email').toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts emailSendingHandlers must be exactly the handlers that import ${EMAIL_CLIENT_MODULE}`).toEqual(importing);
  });

  it('ships the SAML schema validator exactly to the handlers whose bundle imports it', () => {
    const importing = bundles.filter((b) => b.packages.includes(SAML_SCHEMA_VALIDATOR_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => samlSchemaValidatorHandlers.has(h));
    expect(importing.length).toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts samlSchemaValidatorHandlers must be exactly the handlers that import ${SAML_SCHEMA_VALIDATOR_MODULE}`).toEqual(importing);
  });

  it('grants the envelope key exactly to the handlers whose bundle carries the Encryption SDK, and each of them uses it', async () => {
    const carrying = bundles.filter((b) => b.packages.includes(ENVELOPE_SDK_MODULE)).map((b) => b.handler);
    const using: string[] = [];
    for (const bundle of bundles) {
      const calls = await Promise.all(ownFiles(bundle).map(moduleCallsEnvelope));
      if (calls.some(Boolean)) using.push(bundle.handler);
    }
    const listed = handlers.filter((h) => envelopeEncryptionHandlers.has(h) || envelopeDecryptOnlyHandlers.has(h));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed, `envelopeEncryptionHandlers ∪ envelopeDecryptOnlyHandlers must be exactly the handlers whose bundle imports ${ENVELOPE_SDK_MODULE}`).toEqual(carrying);
    expect(using, 'a handler carries the Encryption SDK without encrypting or decrypting with it').toEqual(carrying);
    expect(handlers.filter((h) => envelopeEncryptionHandlers.has(h) && envelopeDecryptOnlyHandlers.has(h))).toEqual([]);
  });

  it('lets a decrypt-only handler never encrypt', async () => {
    expect(envelopeDecryptOnlyHandlers.size).toBeGreaterThan(0);
    for (const handler of envelopeDecryptOnlyHandlers.keys()) {
      const bundle = bundles.find((b) => b.handler === handler)!;
      const encrypting: string[] = [];
      for (const file of ownFiles(bundle)) if (ENCRYPT_CALL.test(await codeOf(file))) encrypting.push(file);
      expect(encrypting, `${handler} is decrypt-only but its bundle encrypts`).toEqual([]);
    }
  });

  it('grants sqs:SendMessage on the run queue exactly to the handlers whose bundle carries the SQS client', () => {
    const importing = bundles.filter((b) => b.packages.includes(RUN_QUEUE_CLIENT_MODULE)).map((b) => b.handler);
    const listed = handlers.filter((h) => runQueueSendingHandlers.has(h));
    expect(importing.length).toBeGreaterThan(0);
    expect(listed, `infra/handler-capabilities.ts runQueueSendingHandlers must be exactly the handlers that import ${RUN_QUEUE_CLIENT_MODULE}`).toEqual(importing);
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
    const named = [...tokenIssuingHandlers, ...passwordHashingHandlers, ...envelopeEncryptionHandlers, ...envelopeDecryptOnlyHandlers.keys(), ...emailSendingHandlers, ...samlSchemaValidatorHandlers, ...runQueueSendingHandlers, ...cursorSealingHandlers];
    expect(named.filter((h) => !known.has(h))).toEqual([]);
  });

  it('follows the project import graph (sanity: the analysis is not vacuous)', () => {
    for (const bundle of bundles) expect(bundle.inputs.length).toBeGreaterThan(1);
    expect(bundles.some((b) => b.inputs.includes('shared/crypto/envelope.ts'))).toBe(true);
  });
});
