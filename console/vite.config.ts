/**
 * The console's build: a static site (index.html and content-hashed assets under assets/) that
 * the local host serves at `/` and, in AWS, a bucket behind CloudFront. preact through the
 * automatic JSX runtime, compiled by Vite's own oxc transform (no babel).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export const consoleRoot = fileURLToPath(new URL('.', import.meta.url));
export const consoleOutDir = fileURLToPath(new URL('./dist', import.meta.url));

export default defineConfig({
  root: consoleRoot,
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: consoleOutDir,
    emptyOutDir: true,
    // The manifest names the first page's files, which the size test weighs.
    manifest: true,
    // No inline data: URLs for small assets, so the CSP needs no `data:`.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
});
