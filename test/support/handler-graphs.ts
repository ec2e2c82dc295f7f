/**
 * Every handler bundled at once with the Lambda bundles' resolution settings but packages left
 * external (well under a second): what each function's bundle would contain, read from the
 * metafile. The capability and route-bundle tests check their lists against it.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { LAMBDA_START, handlerBuildBase, handlerEntry, projectRoot } from '../../infra/bundle-options';

export interface HandlerGraph {
  handler: string;
  /** Project files that ended up in the bundle (tree-shaken modules are absent). */
  inputs: string[];
  /** Bare package imports left in the bundle: the packages it would carry. */
  packages: string[];
  /** The bundle's own code (tree-shaken, not minified; packages left out). */
  code: string;
}

export async function bundleHandlerGraphs(handlers: readonly string[]): Promise<HandlerGraph[]> {
  const entryOf = (handler: string) => path.relative(projectRoot, handlerEntry(handler)).split(path.sep).join('/');
  const result = await build({
    ...handlerBuildBase,
    entryPoints: Object.fromEntries(handlers.map((h) => [h, entryOf(h)])),
    inject: [LAMBDA_START],
    bundle: true,
    write: false,
    metafile: true,
    outdir: 'out',
    packages: 'external',
    logLevel: 'silent',
  });
  const outputs = Object.values(result.metafile.outputs);
  return handlers.map((handler) => {
    const output = outputs.find((o) => o.entryPoint === entryOf(handler))!;
    const outputPath = Object.entries(result.metafile.outputs).find(([, o]) => o === output)![0];
    const code = result.outputFiles.find((file) => path.relative(projectRoot, file.path).split(path.sep).join('/') === outputPath)!.text;
    return { handler, inputs: Object.keys(output.inputs), packages: [...new Set(output.imports.filter((i) => i.external).map((i) => i.path))], code };
  });
}
