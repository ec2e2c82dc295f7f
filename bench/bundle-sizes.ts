/**
 * Size of each function bundle, built with esbuild using the stack's bundling settings
 * (ESM, minified, node22, AWS SDK bundled, the Argon2 native module and the SAML schema
 * validator shipped beside it).
 */
import { build } from 'esbuild';
import { routeList } from '../functions/routes';
import { handlerEntry } from '../infra/route-function';
import { PASSWORD_NATIVE_MODULE, SAML_SCHEMA_VALIDATOR_MODULE } from '../infra/handler-capabilities';

export async function measureBundles(): Promise<{ handler: string; bytes: number }[]> {
  const handlers = [...new Set(routeList.map((r) => r.handler))].sort();
  const sizes = [];
  for (const handler of handlers) {
    const result = await build({
      entryPoints: [handlerEntry(handler)],
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      mainFields: ['module', 'main'],
      external: [PASSWORD_NATIVE_MODULE, SAML_SCHEMA_VALIDATOR_MODULE],
      write: false,
      logLevel: 'silent',
    });
    sizes.push({ handler, bytes: result.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0) });
  }
  return sizes;
}
