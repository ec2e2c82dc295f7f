/**
 * The esbuild settings of the Lambda bundles, owned here once: the stack's `NodejsFunction`
 * takes them in CDK's vocabulary (`lambdaBundling`), the bench and the tests in esbuild's API
 * (`lambdaBuildOptions`, `handlerBuildBase`), so what is measured and checked is what deploys.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OutputFormat, SourceMapMode, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { PASSWORD_NATIVE_MODULE, SAML_SCHEMA_VALIDATOR_MODULE, passwordHashingHandlers, samlSchemaValidatorHandlers } from './handler-capabilities';

/** The repository root (this file lives in `<root>/infra`). */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

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
 * Packages that ship beside the bundle (`nodeModules`) instead of inside it: the Argon2 native
 * module, and the SAML schema validator (it loads its wasm, worker and XSDs from its folder).
 */
export function modulesShippedBeside(handler: string): string[] {
  return [...(passwordHashingHandlers.has(handler) ? [PASSWORD_NATIVE_MODULE] : []), ...(samlSchemaValidatorHandlers.has(handler) ? [SAML_SCHEMA_VALIDATOR_MODULE] : [])];
}

/** How every build of a handler resolves and emits modules, analysis builds included. */
export const handlerBuildBase = {
  absWorkingDir: projectRoot,
  platform: 'node',
  format: 'esm',
  target: BUNDLE_TARGET,
  mainFields: MAIN_FIELDS,
} as const satisfies BuildOptions;

/** esbuild API options that produce a handler's Lambda bundle as the stack ships it. */
export function lambdaBuildOptions(handler: string): BuildOptions {
  return {
    ...handlerBuildBase,
    entryPoints: [handlerEntry(handler)],
    bundle: true,
    minify: true,
    banner: { js: CREATE_REQUIRE_BANNER },
    alias: { ...LAMBDA_ALIASES },
    // The AWS SDK is bundled too: the versions in the lock file, not whatever the runtime ships.
    external: modulesShippedBeside(handler),
    logLevel: 'silent',
  };
}

/**
 * `nodeModules` runs `npm ci` on the host, which would install the host's (linux-x64) binary
 * of the native module; these settings make npm pick the arm64 glibc build that Lambda runs.
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

/** The same bundle in CDK's `NodejsFunction` vocabulary, with its map moved out of the asset. */
export function lambdaBundling(handler: string, stackName: string): BundlingOptions {
  const nodeModules = modulesShippedBeside(handler);
  const quote = (p: string) => `'${p.replaceAll("'", "'\\''")}'`;
  return {
    format: OutputFormat.ESM,
    target: BUNDLE_TARGET,
    mainFields: MAIN_FIELDS,
    minify: true,
    // External: no `sourceMappingURL` comment pointing at a file that is not in the zip.
    sourceMap: true,
    sourceMapMode: SourceMapMode.EXTERNAL,
    sourcesContent: false,
    banner: CREATE_REQUIRE_BANNER,
    externalModules: [],
    esbuildArgs: { '--alias': Object.entries(LAMBDA_ALIASES).map(([from, to]) => `${from}=${to}`) },
    // Only when needed: any `nodeModules` (even empty) makes CDK run `npm ci` in the asset.
    ...(nodeModules.length ? { nodeModules, environment: { ...ARM64_NPM_ENVIRONMENT } } : {}),
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      // The bundling directory sits in the cloud assembly directory, so `..` is `cdk.out`.
      afterBundling: (_inputDir: string, outputDir: string) => {
        const folder = path.join(outputDir, '..', sourceMapFolder(stackName, handler));
        return [
          `mkdir -p ${quote(folder)}`,
          `mv ${quote(path.join(outputDir, 'index.mjs.map'))} ${quote(path.join(folder, 'index.mjs.map'))}`,
          // Packages shipped beside the bundle bring maps of their own, of sources they do not ship.
          `find ${quote(outputDir)} -name '*.map' -type f -delete`,
        ];
      },
    },
    forceDockerBundling: false,
  };
}
