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
 * - a module in the bundle calls `<…>envelope.encrypt(` / `envelope.decrypt(` (the envelope
 *   crypto of `Deps`) ⇔ the handler is in `envelopeEncryptionHandlers` (its KMS grant).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build, transform } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../functions/routes';
import { EMAIL_CLIENT_MODULE, PASSWORD_NATIVE_MODULE, SAML_SCHEMA_VALIDATOR_MODULE, emailSendingHandlers, envelopeEncryptionHandlers, passwordHashingHandlers, samlSchemaValidatorHandlers } from '../../infra/handler-capabilities';
import { handlerEntry, projectRoot } from '../../infra/route-function';

/** Modules that define or wire the envelope crypto rather than use it. */
const ENVELOPE_PLUMBING = new Set(['shared/deps.ts', 'shared/crypto/envelope.ts']);
const ENVELOPE_CALL = /\benvelope\s*\.\s*(encrypt|decrypt)\b/;

const handlers = [...new Set(routeList.map((r) => r.handler))].sort();

interface HandlerBundle {
  handler: string;
  /** Project files that ended up in the bundle (tree-shaken modules are absent). */
  inputs: string[];
  /** Bare package imports left in the bundle. */
  packages: string[];
}

async function bundleHandlers(): Promise<HandlerBundle[]> {
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: Object.fromEntries(handlers.map((h) => [h, path.relative(projectRoot, handlerEntry(h))])),
    bundle: true,
    write: false,
    metafile: true,
    outdir: 'out',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs);
  return handlers.map((handler) => {
    const [, output] = outputs.find(([, o]) => o.entryPoint === path.relative(projectRoot, handlerEntry(handler)).split(path.sep).join('/'))!;
    return {
      handler,
      inputs: Object.keys(output.inputs),
      packages: output.imports.filter((i) => i.external).map((i) => i.path),
    };
  });
}

const callsEnvelope = new Map<string, Promise<boolean>>();
function moduleCallsEnvelope(file: string): Promise<boolean> {
  let found = callsEnvelope.get(file);
  if (!found) {
    // Transpiled first, so comments and type-only code cannot match.
    found = transform(readFileSync(path.join(projectRoot, file), 'utf8'), { loader: 'ts' }).then(({ code }) => ENVELOPE_CALL.test(code));
    callsEnvelope.set(file, found);
  }
  return found;
}

describe('handler capabilities', () => {
  let bundles: HandlerBundle[];

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

  it('grants the envelope key exactly to the handlers whose code encrypts or decrypts', async () => {
    const using: string[] = [];
    for (const bundle of bundles) {
      const files = bundle.inputs.filter((f) => !ENVELOPE_PLUMBING.has(f) && !f.startsWith('node_modules/'));
      const calls = await Promise.all(files.map(moduleCallsEnvelope));
      if (calls.some(Boolean)) using.push(bundle.handler);
    }
    const listed = handlers.filter((h) => envelopeEncryptionHandlers.has(h));
    expect(listed, 'infra/handler-capabilities.ts envelopeEncryptionHandlers must be exactly the handlers that call deps.envelope.encrypt/decrypt').toEqual(using);
  });

  it('names only handlers of the route table', () => {
    const known = new Set(handlers);
    expect([...passwordHashingHandlers, ...envelopeEncryptionHandlers, ...emailSendingHandlers, ...samlSchemaValidatorHandlers].filter((h) => !known.has(h))).toEqual([]);
  });

  it('follows the project import graph (sanity: the analysis is not vacuous)', () => {
    for (const bundle of bundles) expect(bundle.inputs.length).toBeGreaterThan(1);
    expect(bundles.some((b) => b.inputs.includes('shared/crypto/envelope.ts'))).toBe(true);
  });
});
