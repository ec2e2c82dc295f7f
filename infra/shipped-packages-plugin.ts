/**
 * An esbuild plugin for the Lambda bundles: the packages shipped beside a bundle or in the layer
 * (`modulesShippedBeside`, `modulesFromLayer`: the SAML schema validator, the Argon2 native
 * module) are loaded with `require` (the banner's `createRequire`), not with an ESM `import`.
 * Both are CommonJS; Node imports CommonJS into ESM by first lexing its source for named
 * exports, which for the Argon2 package costs ~22 ms of CPU at every cold start against ~5 ms for
 * `require` (measured here, fresh processes); and `require` searches `NODE_PATH`, where Lambda
 * puts a layer's packages, which an ESM import does not. Each import of such a package resolves to a small CommonJS module that
 * requires it, and that `require` is left external.
 */
import type { Plugin } from 'esbuild';

const NAMESPACE = 'shipped-package';

export function requireShippedPackages(packages: readonly string[]): Plugin {
  const escaped = packages.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const filter = new RegExp(`^(${escaped.join('|')})$`);
  return {
    name: 'require-shipped-packages',
    setup(build) {
      if (packages.length === 0) return;
      build.onResolve({ filter }, (args) => (args.namespace === NAMESPACE ? { path: args.path, external: true } : { path: args.path, namespace: NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
    },
  };
}
