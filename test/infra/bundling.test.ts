/**
 * Real bundling, the way `cdk synth` does it (local esbuild, `npm ci` for the native module),
 * for three functions only:
 * - the login handler: the layer it takes must carry the Argon2 binary for arm64 glibc (what
 *   Lambda runs), not the host's, and its bundle finds the package on `NODE_PATH` (where Lambda
 *   puts a layer's `nodejs/node_modules`);
 * - the health handler: its ESM bundle must load in Node (catches CommonJS dependencies that
 *   need the `createRequire` banner, and dynamic requires esbuild could not resolve);
 * - the SAML assertion consumer: its bundle loads, and the schema validator shipped beside it
 *   (xmllint in WebAssembly, with its worker and the SAML XSDs) runs from the asset;
 * - the login and assertion consumer: the packages shipped beside them loaded with `require`;
 * - all three: no source map in the asset (the deployed zip), each map kept in the cloud
 *   assembly under `sourcemaps/`, and the SDK's default credential chain replaced by the
 *   environment credentials (infra/bundle-options.ts).
 * `npm ci` needs the npm registry (or a warm npm cache). Set TESSERA_SKIP_BUNDLING_TEST=1 to
 * skip this file on a machine without either.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes';
import { PASSWORD_NATIVE_MODULE, SAML_SCHEMA_VALIDATOR_MODULE, passwordHashingHandlers, samlSchemaValidatorHandlers } from '../../infra/handler-capabilities';
import { projectRoot, sourceMapFolder } from '../../infra/bundle-options';
import { createRouteFunction } from '../../infra/route-function';
import { defaultStackSettings } from '../../infra/stack-settings';

const run = promisify(execFile);
const skip = process.env.TESSERA_SKIP_BUNDLING_TEST === '1';

describe.skipIf(skip)('Lambda bundling (real esbuild + npm, arm64)', () => {
  let outdir: string;
  const assetDirs = new Map<string, string>();
  let layerDir: string;
  let template: { Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, string> }> };
  const logicalIds = new Map<string, string>();

  beforeAll(() => {
    outdir = mkdtempSync(path.join(os.tmpdir(), 'tessera-bundling-'));
    const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
    const stack = new Stack(app, 'BundlingTest');
    for (const route of [routes.login, routes.health, routes.ssoCallbackPost]) {
      const { fn } = createRouteFunction(stack, {
        handler: route.handler,
        routes: [route],
        env: 'test',
        environment: {},
        logRetention: defaultStackSettings.logRetention,
        tracing: false,
      });
      logicalIds.set(route.handler, stack.getLogicalId(fn.node.defaultChild as CfnElement));
    }
    template = app.synth().getStackByName(stack.stackName).template as typeof template;
    for (const [handler, id] of logicalIds) {
      assetDirs.set(handler, path.join(outdir, template.Resources[id]!.Metadata!['aws:asset:path']!));
    }
    const layers = Object.values(template.Resources).filter((r) => r.Type === 'AWS::Lambda::LayerVersion');
    expect(layers).toHaveLength(1);
    layerDir = path.join(outdir, layers[0]!.Metadata!['aws:asset:path']!);
  }, 180_000);

  afterAll(() => {
    if (outdir) rmSync(outdir, { recursive: true, force: true });
  });

  it('ships the arm64 glibc Argon2 binary in the layer the login function takes, and not the host one', () => {
    expect(passwordHashingHandlers.has(routes.login.handler)).toBe(true);
    const dir = assetDirs.get(routes.login.handler)!;
    expect(readdirSync(dir)).toEqual(['index.mjs']);
    const nodeRs = path.join(layerDir, 'nodejs', 'node_modules', '@node-rs');
    expect(readdirSync(nodeRs).sort()).toEqual(['argon2', 'argon2-linux-arm64-gnu']);
    expect(readdirSync(path.join(nodeRs, 'argon2-linux-arm64-gnu')).filter((f) => f.endsWith('.node'))).toEqual(['argon2.linux-arm64-gnu.node']);
    const layersOf = (handler: string) => (template.Resources[logicalIds.get(handler)!]!.Properties!.Layers as unknown[] | undefined) ?? [];
    expect(layersOf(routes.login.handler)).toHaveLength(1);
    expect(layersOf(routes.health.handler)).toEqual([]);
  });

  it('loads Argon2 from NODE_PATH, where Lambda puts a layer, and fails without it', async () => {
    // The asset sits outside any node_modules tree, as /var/task does; the host's build of the package stands in for the layer's.
    const bundle = JSON.stringify(pathToFileURL(path.join(assetDirs.get(routes.login.handler)!, 'index.mjs')).href);
    const script = `const m = await import(${bundle}); if (typeof m.handler !== 'function') throw new Error('no handler export');`;
    const env = Object.fromEntries(Object.entries({ ...process.env, TESSERA_STAGE: 'local' }).filter(([name]) => name !== 'NODE_PATH'));
    await expect(run(process.execPath, ['--input-type=module', '-e', script], { env: { ...env, NODE_PATH: path.join(projectRoot, 'node_modules') } })).resolves.toBeDefined();
    await expect(run(process.execPath, ['--input-type=module', '-e', script], { env })).rejects.toThrow(/Cannot find module '@node-rs\/argon2'/);
  });

  it('bundles everything else into one ESM file that loads in Node', async () => {
    const dir = assetDirs.get(routes.health.handler)!;
    expect(readdirSync(dir)).toEqual(['index.mjs']);
    // Invoked, it builds its deps from the configuration (functions/start/lambda-start.ts is
    // injected): with no database to reach the check answers 503, where missing deps would be a 500.
    const event = { version: '2.0', routeKey: 'GET /v1/health', rawPath: '/v1/health', rawQueryString: '', headers: {}, requestContext: { requestId: 'r1', http: { method: 'GET', path: '/v1/health', sourceIp: '127.0.0.1', userAgent: 't' } }, isBase64Encoded: false };
    const script = [
      `const m = await import(${JSON.stringify(pathToFileURL(path.join(dir, 'index.mjs')).href)}); if (typeof m.handler !== 'function') throw new Error('no handler export');`,
      `const answer = await m.handler(${JSON.stringify(event)}, { awsRequestId: 'r1', getRemainingTimeInMillis: () => 3000 });`,
      'process.stdout.write(String(answer.statusCode));',
    ].join('\n');
    const env = { ...process.env, TESSERA_STAGE: 'local', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', AWS_MAX_ATTEMPTS: '1' };
    await expect(run(process.execPath, ['--input-type=module', '-e', script], { env })).resolves.toMatchObject({ stdout: '503' });
  });

  it('ships the SAML schema validator beside the assertion consumer, and it validates from there', async () => {
    expect(samlSchemaValidatorHandlers.has(routes.ssoCallbackPost.handler)).toBe(true);
    const dir = assetDirs.get(routes.ssoCallbackPost.handler)!;
    expect(existsSync(path.join(dir, 'node_modules', ...SAML_SCHEMA_VALIDATOR_MODULE.split('/'), 'schemas', 'saml-schema-protocol-2.0.xsd'))).toBe(true);
    const bundle = JSON.stringify(pathToFileURL(path.join(dir, 'index.mjs')).href);
    const validator = JSON.stringify(path.join(dir, 'node_modules', ...SAML_SCHEMA_VALIDATOR_MODULE.split('/')));
    const script = [
      `const m = await import(${bundle}); if (typeof m.handler !== 'function') throw new Error('no handler export');`,
      `const { createRequire } = await import('node:module'); const { validate } = createRequire(import.meta.url)(${validator});`,
      `const request = '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_1" Version="2.0" IssueInstant="2026-01-01T00:00:00Z"><saml:Issuer>sp</saml:Issuer></samlp:AuthnRequest>';`,
      `if ((await validate(request)) !== true) throw new Error('a valid request was refused');`,
      `if (await validate('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>').then(() => true, () => false)) throw new Error('an invalid response passed');`,
    ].join('\n');
    await expect(run(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TESSERA_STAGE: 'local' } })).resolves.toBeDefined();
  });

  it('loads the packages shipped beside a bundle with require, not with an ESM import', () => {
    // An ESM import of CommonJS makes Node lex the package for its exports at every cold start (infra/shipped-packages-plugin.ts).
    for (const [handler, pkg] of [
      [routes.login.handler, PASSWORD_NATIVE_MODULE],
      [routes.ssoCallbackPost.handler, SAML_SCHEMA_VALIDATOR_MODULE],
    ] as const) {
      const code = readFileSync(path.join(assetDirs.get(handler)!, 'index.mjs'), 'utf8');
      expect(code.includes(`("${pkg}")`), `${handler} requires ${pkg}`).toBe(true);
      expect(new RegExp(`from ?"${pkg}"|import ?\\(?"${pkg}"`).test(code), `${handler} imports ${pkg}`).toBe(false);
    }
  });

  it('keeps the source maps out of the assets, beside them in the cloud assembly', () => {
    for (const [handler, dir] of assetDirs) {
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
      expect(files.filter((f) => f.endsWith('.map')), `${handler} asset`).toEqual([]);
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      expect(code.includes('sourceMappingURL'), `${handler} bundle points at a map`).toBe(false);
      const map = JSON.parse(readFileSync(path.join(outdir, sourceMapFolder('BundlingTest', handler), 'index.mjs.map'), 'utf8')) as { sources: string[]; mappings: string };
      expect(map.sources, `${handler} map`).toContainEqual(expect.stringMatching(new RegExp(`functions/${handler}\\.ts$`)));
      expect(map.mappings.length).toBeGreaterThan(1000);
    }
  });

  it('gives the functions the environment credentials, not the default chain', () => {
    for (const [handler, dir] of assetDirs) {
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      // Booleans, so a failure does not print a whole bundle.
      expect(code.includes('Unable to find environment variable credentials'), `${handler} has the environment provider`).toBe(true);
      expect(code.includes('Could not load credentials from any providers'), `${handler} has the default chain`).toBe(false);
    }
  });
});
