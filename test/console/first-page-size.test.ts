/**
 * The first page of the console stays small: the JavaScript and CSS that index.html loads
 * (its entry and everything the entry imports statically, from the build's manifest) weigh
 * at most 200 KiB gzipped. Measured on the build output, not timed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { consoleDistDir } from '../../infra/local/console-build';

const BUDGET_BYTES = 200 * 1024;

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** Every file the first page loads before it can run: the entry's static import graph and its CSS. */
function firstPageFiles(manifest: Record<string, ManifestChunk>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  return [...files];
}

describe('the console build', () => {
  it('loads at most 200 KiB of gzipped JavaScript and CSS on its first page', async () => {
    const manifest = JSON.parse(await readFile(path.join(consoleDistDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const files = firstPageFiles(manifest);
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    // index.html names exactly these: nothing it loads escapes the count.
    const html = await readFile(path.join(consoleDistDir, 'index.html'), 'utf8');
    const loaded = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(loaded.every((f) => files.includes(f))).toBe(true);
    let gzipped = 0;
    for (const file of files) gzipped += gzipSync(await readFile(path.join(consoleDistDir, file)), { level: 9 }).length;
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
