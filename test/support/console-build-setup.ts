/**
 * vitest globalSetup: the web console built (when missing or stale) before any test file runs,
 * so files that serve it, and `npm start` in the local tests, find it ready instead of
 * building it at once.
 */
import { ensureConsoleBuilt } from '../../infra/local/console-build';

export default async function setup(): Promise<void> {
  await ensureConsoleBuilt();
}
