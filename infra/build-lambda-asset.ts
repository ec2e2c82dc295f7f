/**
 * Builds one function's Lambda asset into a directory; `lambdaCode` (infra/bundle-options.ts)
 * runs it in a child process during `cdk synth`:
 * - the bundle, `index.mjs`, built with `lambdaBuildOptions`; its source map is moved to the
 *   cloud assembly (`mapFolder`), so the deployed zip carries code only;
 * - the packages shipped beside the bundle (`modulesShippedBeside`), installed by `npm ci` from
 *   the lock file for arm64 (what `NodejsFunction`'s `nodeModules` did), their own maps dropped.
 *
 * Usage: node --import tsx infra/build-lambda-asset.ts <handler> <outputDir> <mapFolder>
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { ARM64_NPM_ENVIRONMENT, lambdaBuildOptions, modulesShippedBeside, projectRoot } from './bundle-options';

const [handler, outputDir, mapFolder] = process.argv.slice(2);
if (!handler || !outputDir || !mapFolder) throw new Error('usage: build-lambda-asset.ts <handler> <outputDir> <mapFolder>');

await build({ ...lambdaBuildOptions(handler), outfile: path.join(outputDir, 'index.mjs'), sourcemap: 'external', sourcesContent: false });
mkdirSync(mapFolder, { recursive: true });
renameSync(path.join(outputDir, 'index.mjs.map'), path.join(mapFolder, 'index.mjs.map'));

const shipped = modulesShippedBeside(handler);
if (shipped.length > 0) {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const dependencies = Object.fromEntries(
    shipped.map((name) => {
      const version = manifest.dependencies?.[name];
      if (!version) throw new Error(`${name} is shipped beside ${handler} but is not a dependency in package.json`);
      return [name, version];
    }),
  );
  writeFileSync(path.join(outputDir, 'package.json'), JSON.stringify({ dependencies }, null, 2));
  copyFileSync(path.join(projectRoot, 'package-lock.json'), path.join(outputDir, 'package-lock.json'));
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: outputDir, env: { ...process.env, ...ARM64_NPM_ENVIRONMENT }, stdio: ['ignore', 'ignore', 'inherit'] });
  // The packages bring maps of their own, of sources they do not ship.
  for (const file of readdirSync(path.join(outputDir, 'node_modules'), { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.map')) rmSync(path.join(outputDir, 'node_modules', file));
  }
}
