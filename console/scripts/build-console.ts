/**
 * The console's build: the API types from the served document first (so a route change that
 * breaks the console breaks its typecheck), then Vite into `outDir`. `npm run build:console`
 * runs it; the local host runs it when its build is missing or stale.
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

export async function buildConsole(outDir: string): Promise<void> {
  await generateApiSchema();
  await build({ configFile, build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildConsole(fileURLToPath(new URL('../dist', import.meta.url)));
}
