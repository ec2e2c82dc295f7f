/**
 * The web console on the API's origin, as CloudFront + S3 serve it (infra/console-site.ts): the files of its
 * build, and index.html for any other GET outside `/v1` that does not look like a file, so
 * client-side paths such as `/reset-password?token=…` open directly. The API's paths are never
 * answered here: an unknown `/v1/...` path stays a problem+json 404.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { HASHED_ASSETS_PREFIX, HASHED_ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL, consoleSecurityHeaders } from '../../console/site-headers';
import type { StaticPage } from './server';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export type ConsoleSite = (rawPath: string) => Promise<StaticPage | undefined>;

/** What the console answers for a GET of `rawPath`, or undefined when the path is not the console's. */
export function consoleSite(distDir: string): ConsoleSite {
  const root = path.resolve(distDir);
  return async (rawPath) => {
    if (rawPath === '/v1' || rawPath.startsWith('/v1/')) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      return undefined;
    }
    const file = path.resolve(root, `.${path.posix.normalize(decoded)}`);
    // Nothing outside the build, and not the build's own metadata (.vite/manifest.json).
    const inside = file.startsWith(root + path.sep) && !path.relative(root, file).split(path.sep).some((part) => part.startsWith('.'));
    if (inside && (await stat(file).catch(() => undefined))?.isFile()) return page(file, rawPath.startsWith(`/${HASHED_ASSETS_PREFIX}`));
    if (path.posix.extname(decoded) !== '') return undefined; // a missing file is a 404, not the app
    return page(path.join(root, 'index.html'), false);
  };
}

async function page(file: string, hashed: boolean): Promise<StaticPage> {
  return {
    contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    body: await readFile(file),
    // Hashed assets never change under their name; index.html names the current ones.
    headers: { ...consoleSecurityHeaders, 'cache-control': hashed ? HASHED_ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL },
  };
}
