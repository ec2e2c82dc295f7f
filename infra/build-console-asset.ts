/**
 * Builds the web console into a directory; `consoleBuildSource` (infra/console-asset.ts) runs it
 * in a child process during `cdk synth`, as the functions' bundles are built (CDK's local
 * bundling is synchronous, Vite's build is not). The types generated from the route table are
 * taken as committed (`npm run build:console` regenerates them): a synth never rewrites a
 * source file. Vite's manifest is dropped: the local host never serves it, nor should the bucket.
 *
 * Usage: node --import tsx infra/build-console-asset.ts <outputDir>
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { buildConsole } from '../console/scripts/build-console';

const [outputDir] = process.argv.slice(2);
if (!outputDir) throw new Error('Usage: build-console-asset.ts <outputDir>');
await buildConsole(outputDir, { regenerateTypes: false });
rmSync(path.join(outputDir, '.vite'), { recursive: true, force: true });
