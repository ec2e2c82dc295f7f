/**
 * The seam that keeps tracing out of the bundles of environments that do not trace: with
 * tracing off, every import of shared/tracing.ts (the Powertools Tracer and the X-Ray SDK
 * under it) resolves to shared/tracing-off.ts, two no-ops. Bundle sizes and init times
 * (issue 12's measures) are those of tracing off.
 */
import path from 'node:path';
import type { Plugin } from 'esbuild';

export function tracingPlugin(projectRoot: string, tracing: boolean): Plugin {
  const tracingModule = path.join(projectRoot, 'shared', 'tracing');
  const tracingOff = path.join(projectRoot, 'shared', 'tracing-off.ts');
  return {
    name: 'tessera-tracing',
    setup(build) {
      if (tracing) return;
      build.onResolve({ filter: /(^|\/)tracing(\.ts)?$/ }, (args) => {
        const target = path.resolve(args.resolveDir, args.path).replace(/\.ts$/, '');
        return target === tracingModule ? { path: tracingOff } : undefined;
      });
    },
  };
}
