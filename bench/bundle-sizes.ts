/**
 * Size of each function bundle, built with esbuild with the stack's settings
 * (infra/bundle-options.ts: ESM, minified, node22, AWS SDK bundled, the Argon2 native module
 * and the SAML schema validator shipped beside it).
 */
import { build } from 'esbuild';
import { routeList } from '../functions/routes';
import { lambdaBuildOptions } from '../infra/bundle-options';

export async function measureBundles(): Promise<{ handler: string; bytes: number }[]> {
  const handlers = [...new Set(routeList.map((r) => r.handler))].sort();
  const sizes = [];
  for (const handler of handlers) {
    const result = await build({ ...lambdaBuildOptions(handler), write: false, outdir: 'out' });
    sizes.push({ handler, bytes: result.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0) });
  }
  return sizes;
}
