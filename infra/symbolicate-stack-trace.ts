/**
 * Maps the frames of a Lambda stack trace back to the TypeScript sources, with the source map
 * the synth kept beside the asset (infra/bundle-options.ts `sourceMapFolder`):
 *
 *   npx tsx infra/symbolicate-stack-trace.ts cdk.out/sourcemaps/Tessera-<env>/<handler>/index.mjs.map < trace.txt
 *
 * Frames of the bundle (`…/index.mjs:LINE:COLUMN`) are rewritten as `source:line:column`;
 * other lines pass through unchanged.
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';

const [mapFile] = process.argv.slice(2);
if (!mapFile) {
  console.error('usage: symbolicate-stack-trace <index.mjs.map> < stack-trace.txt');
  process.exit(2);
}
const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload);
const FRAME = /((?:file:\/\/)?[^\s()]*index\.mjs):(\d+):(\d+)/g;

const trace = readFileSync(0, 'utf8');
process.stdout.write(
  trace.replace(FRAME, (frame, _file: string, line: string, column: string) => {
    // Stack traces count from 1, source maps from 0.
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!('originalSource' in entry)) return frame;
    return `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  }),
);
