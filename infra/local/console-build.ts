/**
 * The console's build as the local host needs it: built when missing or older than its
 * sources, so `npm start` on a fresh clone serves it without a separate step. Processes that
 * start at once (parallel test files, two terminals) build once: a lock file serialises them,
 * and the build goes to a directory of its own that replaces the old one by rename.
 */
import { mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildConsole, consoleDir } from '../../console/scripts/build-console';

export const consoleDistDir = path.join(consoleDir, 'dist');
const MANIFEST = path.join(consoleDistDir, '.vite', 'manifest.json');
const LOCK = path.join(consoleDir, '.build.lock');
/** A lock older than this was left by a build that died. */
const STALE_LOCK_MS = 180_000;

/** Builds the console unless its build is newer than every source; resolves to the directory served. */
export async function ensureConsoleBuilt(log: (line: string) => void = () => undefined): Promise<string> {
  if (await isFresh()) return consoleDistDir;
  const release = await lock();
  try {
    if (await isFresh()) return consoleDistDir; // another process built it while this one waited
    const started = Date.now();
    const staging = await mkdtemp(path.join(consoleDir, '.dist-'));
    try {
      await buildConsole(staging, { regenerateTypes: false });
      await rm(consoleDistDir, { recursive: true, force: true });
      await rename(staging, consoleDistDir);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    log(`Built the console in ${Date.now() - started} ms`);
    return consoleDistDir;
  } finally {
    await release();
  }
}

async function isFresh(): Promise<boolean> {
  const built = await stat(MANIFEST).catch(() => undefined);
  if (!built) return false;
  return (await newestSource()) <= built.mtimeMs;
}

/** The newest modification time among what the build reads. */
async function newestSource(): Promise<number> {
  // shared/console-paths.ts is the one file outside console/ that its pages import.
  const files = [path.join(consoleDir, 'index.html'), path.join(consoleDir, 'vite.config.ts'), path.join(consoleDir, '..', 'shared', 'console-paths.ts')];
  for (const dir of ['src', 'scripts', 'public']) {
    for (const entry of await readdir(path.join(consoleDir, dir), { recursive: true, withFileTypes: true }).catch(() => [])) {
      if (entry.isFile()) files.push(path.join(entry.parentPath, entry.name));
    }
  }
  const times = await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
  return Math.max(...times);
}

async function lock(): Promise<() => Promise<void>> {
  for (;;) {
    try {
      const handle = await open(LOCK, 'wx');
      await handle.close();
      return () => rm(LOCK, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await stat(LOCK).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(LOCK, { force: true });
      else await sleep(200);
    }
  }
}
