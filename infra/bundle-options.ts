/**
 * The esbuild settings of the Lambda bundles, owned here once: the stack's functions take their
 * code from `lambdaCode`, which builds with `lambdaBuildOptions`, as the bench and the tests do
 * (with `handlerBuildBase` for analysis builds), so what is measured and checked is what deploys.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions } from 'esbuild';
import { encryptionSdkWithoutSigning } from './encryption-sdk-plugin';
import { samlifyPostConsumer } from './samlify-post-consumer-plugin';
import { requireShippedPackages } from './shipped-packages-plugin';
import { tracingPlugin } from './tracing-plugin';
import { PASSWORD_NATIVE_MODULE, SAML_SCHEMA_VALIDATOR_MODULE, passwordHashingHandlers, samlSchemaValidatorHandlers } from './handler-capabilities';

/** The repository root (this file lives in `<root>/infra`). */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Put in front of every handler's bundle: the deps factory of shared/deps.ts. */
export const LAMBDA_START = path.join(projectRoot, 'functions', 'start', 'lambda-start.ts');

export function handlerEntry(handler: string): string {
  return path.join(projectRoot, 'functions', `${handler}.ts`);
}

/** Lambda runs Node 22 (infra/route-function.ts `LAMBDA_RUNTIME`). */
export const BUNDLE_TARGET = 'node22';
const MAIN_FIELDS = ['module', 'main'];

/** ESM bundles still meet CommonJS dependencies that call `require`; give them one. */
const CREATE_REQUIRE_BANNER = "import { createRequire as __tesseraCreateRequire } from 'node:module'; const require = __tesseraCreateRequire(import.meta.url);";

/**
 * Lambda bundles only: the SDK's default credential chain replaced by the environment
 * credentials the runtime sets (infra/lambda-credentials.ts says why), and `readable-stream`
 * by Node's own `stream` (infra/lambda-readable-stream.ts). Paths are relative to
 * the project root, esbuild's working directory in both the CDK and the API builds.
 */
export const LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './infra/lambda-credentials.ts',
  // Node's own streams for the Encryption SDK, not their userland copy (infra/lambda-readable-stream.ts).
  'readable-stream': './infra/lambda-readable-stream.ts',
};

/**
 * Packages that ship beside the bundle (installed in its asset) instead of inside it: the
 * SAML schema validator (it loads its wasm, worker and XSDs from its folder).
 */
export function modulesShippedBeside(handler: string): string[] {
  return samlSchemaValidatorHandlers.has(handler) ? [SAML_SCHEMA_VALIDATOR_MODULE] : [];
}

/**
 * Packages that reach a function through a Lambda layer: the Argon2 native module, which four
 * functions use. Its arm64 binary is most of their zip (~440 KiB deflated); in one layer it is
 * deployed once. Lambda puts a layer's `nodejs/node_modules` on `NODE_PATH`, which `require`
 * searches (and an ESM import would not): `requireShippedPackages` loads it so.
 */
export const LAYER_PACKAGES: readonly string[] = [PASSWORD_NATIVE_MODULE];

export function modulesFromLayer(handler: string): string[] {
  return passwordHashingHandlers.has(handler) ? [...LAYER_PACKAGES] : [];
}

/**
 * How every build of a handler resolves and emits modules, analysis builds included: tracing
 * off (infra/tracing-plugin.ts), as issue 12's measures are taken.
 */
export const handlerBuildBase = {
  absWorkingDir: projectRoot,
  platform: 'node',
  format: 'esm',
  target: BUNDLE_TARGET,
  mainFields: MAIN_FIELDS,
  plugins: [tracingPlugin(projectRoot, false)],
} as const satisfies BuildOptions;

export interface LambdaBundleOptions {
  /** Bundle the Powertools Tracer (shared/tracing.ts); off: its no-op stands in. */
  tracing?: boolean;
}

/** esbuild API options that produce a handler's Lambda bundle as the stack ships it. */
export function lambdaBuildOptions(handler: string, options: LambdaBundleOptions = {}): BuildOptions {
  return {
    ...handlerBuildBase,
    entryPoints: [handlerEntry(handler)],
    // Every function starts by installing how it builds its deps (functions/start/lambda-start.ts).
    inject: [LAMBDA_START],
    bundle: true,
    minify: true,
    banner: { js: CREATE_REQUIRE_BANNER },
    alias: { ...LAMBDA_ALIASES },
    // The AWS SDK is bundled too: the versions in the lock file, not whatever the runtime ships.
    // Only the packages shipped beside the bundle or in a layer stay out of it, loaded with `require`.
    plugins: [
      tracingPlugin(projectRoot, options.tracing ?? false),
      encryptionSdkWithoutSigning,
      // The functions that ship samlify's schema validator are the ones that bundle samlify.
      ...(samlSchemaValidatorHandlers.has(handler) ? [samlifyPostConsumer] : []),
      requireShippedPackages([...modulesShippedBeside(handler), ...modulesFromLayer(handler)]),
    ],
    logLevel: 'silent',
  };
}

/**
 * The packages shipped beside a bundle are installed by `npm ci` from the lock file; these
 * settings make npm pick the arm64 glibc build of the native module that Lambda runs, not the
 * host's (linux-x64).
 */
export const ARM64_NPM_ENVIRONMENT = {
  npm_config_cpu: 'arm64',
  npm_config_os: 'linux',
  npm_config_libc: 'glibc',
  npm_config_prefer_offline: 'true',
} as const;

/**
 * Where a function's source map is kept, relative to the cloud assembly (`cdk.out`): beside the
 * assets, not in them, so the deployed zip carries code only and a stack trace from the logs
 * can still be mapped back (README, "Symbolicating a stack trace").
 */
export function sourceMapFolder(stackName: string, handler: string): string {
  return path.join('sourcemaps', stackName, handler);
}

const ASSET_BUILDER = path.join(projectRoot, 'infra', 'build-lambda-asset.ts');

/**
 * An asset built on this machine by infra/build-lambda-asset.ts (`builderArgs` after the output
 * directory is filled in). CDK's local bundling is synchronous and the esbuild API with plugins
 * is not, hence the child process. The asset's hash is its output's, as `NodejsFunction` does
 * it; `cacheKey` must tell assets apart, since CDK caches bundled assets by source path and
 * bundling options and every asset here bundles from the project root.
 */
function locallyBuiltAsset(cacheKey: Record<string, string>, builderArgs: (outputDir: string) => string[]): lambda.Code {
  return lambda.Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never used: local bundling always runs (it throws rather than fall back to Docker).
      image: lambda.Runtime.NODEJS_22_X.bundlingImage,
      environment: cacheKey,
      local: {
        tryBundle(outputDir: string): boolean {
          execFileSync(process.execPath, ['--import', 'tsx', ASSET_BUILDER, ...builderArgs(outputDir)], { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit'] });
          return true;
        },
      },
    },
  });
}

/**
 * A function's code as the stack deploys it: bundled with `lambdaBuildOptions` (esbuild's API,
 * so the bundle can take plugins, which CDK's `NodejsFunction` cannot pass to esbuild), the
 * packages shipped beside it installed for arm64, its source map moved out of the asset.
 */
export function lambdaCode(handler: string, stackName: string, options: LambdaBundleOptions = {}): lambda.Code {
  const tracing = options.tracing ?? false;
  return locallyBuiltAsset({ TESSERA_HANDLER: handler, TESSERA_STACK: stackName, TESSERA_TRACING: String(tracing) }, (outputDir) => [
    handler,
    outputDir,
    path.join(outputDir, '..', sourceMapFolder(stackName, handler)),
    ...(tracing ? ['--tracing'] : []),
  ]);
}

/** The layer that holds `LAYER_PACKAGES` for arm64 (`nodejs/node_modules`, installed by `npm ci` from the lock file). */
export function lambdaLayerCode(): lambda.Code {
  return locallyBuiltAsset({ TESSERA_LAYER: LAYER_PACKAGES.join(',') }, (outputDir) => ['--layer', outputDir]);
}
