/**
 * The console's build: `npm run build:console` regenerates the API types from the served
 * document first (so a route change that breaks the console breaks its typecheck), then runs
 * Vite into `outDir`. The local host's automatic build (infra/local/console-build.ts) runs Vite
 * only: starting a server, or a test run, never rewrites a committed file, so the drift test
 * (test/console/api-schema-drift.test.ts) sees the types as committed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { apiSchemaTypes } from './api-schema-source';
import { servedOpenApiDocument } from './served-openapi-document';

export const consoleDir = fileURLToPath(new URL('..', import.meta.url));
export const schemaFile = fileURLToPath(new URL('../src/api/schema.d.ts', import.meta.url));
const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));

/** Writes schema.d.ts only when its content changes, so an unchanged build leaves it untouched. */
export async function generateApiSchema(): Promise<void> {
  const types = await apiSchemaTypes(servedOpenApiDocument());
  if ((await readFile(schemaFile, 'utf8').catch(() => '')) !== types) await writeFile(schemaFile, types);
}

export async function buildConsole(outDir: string, options: { regenerateTypes: boolean }): Promise<void> {
  if (options.regenerateTypes) await generateApiSchema();
  await build({ configFile, build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildConsole(fileURLToPath(new URL('../dist', import.meta.url)), { regenerateTypes: true });
}
