/**
 * Builds one function's Lambda asset into a directory; `lambdaCode` (infra/bundle-options.ts)
 * runs it in a child process during `cdk synth`:
 * - the bundle, `index.mjs`, built with `lambdaBuildOptions`; its source map is moved to the
 *   cloud assembly (`mapFolder`), so the deployed zip carries code only;
 * - the packages shipped beside the bundle (`modulesShippedBeside`), installed by `npm ci` from
 *   the lock file for arm64 (what `NodejsFunction`'s `nodeModules` did), their own maps dropped.
 * With `--layer`, the layer of `LAYER_PACKAGES` instead (`lambdaLayerCode`): the same install
 * into `nodejs/`, where Lambda looks for a layer's packages.
 *
 * Usage: node --import tsx infra/build-lambda-asset.ts <handler> <outputDir> <mapFolder> [--tracing]
 *        node --import tsx infra/build-lambda-asset.ts --layer <outputDir>
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { ARM64_NPM_ENVIRONMENT, LAYER_PACKAGES, lambdaBuildOptions, modulesShippedBeside, projectRoot } from './bundle-options';

/** `packages` (each a dependency in package.json) installed into `dir` for arm64 from the lock file. */
function installForLambda(dir: string, packages: readonly string[], forWhat: string): void {
  if (packages.length === 0) return;
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const dependencies = Object.fromEntries(
    packages.map((name) => {
      const version = manifest.dependencies?.[name];
      if (!version) throw new Error(`${name} is shipped with ${forWhat} but is not a dependency in package.json`);
      return [name, version];
    }),
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ dependencies }, null, 2));
  copyFileSync(path.join(projectRoot, 'package-lock.json'), path.join(dir, 'package-lock.json'));
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env: { ...process.env, ...ARM64_NPM_ENVIRONMENT }, stdio: ['ignore', 'ignore', 'inherit'] });
  // The packages bring maps of their own, of sources they do not ship.
  for (const file of readdirSync(path.join(dir, 'node_modules'), { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.map')) rmSync(path.join(dir, 'node_modules', file));
  }
}

const args = process.argv.slice(2);
if (args[0] === '--layer') {
  const outputDir = args[1];
  if (!outputDir) throw new Error('usage: build-lambda-asset.ts --layer <outputDir>');
  installForLambda(path.join(outputDir, 'nodejs'), LAYER_PACKAGES, 'the layer');
} else {
  const [handler, outputDir, mapFolder, tracingFlag] = args;
  if (!handler || !outputDir || !mapFolder || (tracingFlag !== undefined && tracingFlag !== '--tracing')) throw new Error('usage: build-lambda-asset.ts <handler> <outputDir> <mapFolder> [--tracing]');
  await build({ ...lambdaBuildOptions(handler, { tracing: tracingFlag === '--tracing' }), outfile: path.join(outputDir, 'index.mjs'), sourcemap: 'external', sourcesContent: false });
  mkdirSync(mapFolder, { recursive: true });
  renameSync(path.join(outputDir, 'index.mjs.map'), path.join(mapFolder, 'index.mjs.map'));
  installForLambda(outputDir, modulesShippedBeside(handler), handler);
}
