/**
 * A scratch directory for a test that bundles a probe with a function's esbuild options:
 * inside the repository (under the gitignored bench/.build), so the probe's imports and the
 * packages shipped beside a bundle resolve from node_modules as a handler's do.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../infra/bundle-options';

export function makeBundleBuildDir(prefix: string): string {
  const parent = path.join(projectRoot, 'bench', '.build');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(path.join(parent, prefix));
}

export function removeBundleBuildDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
