/** `POST /v1/connections/{id}/runs`: a manual run, queued now (202, its URL in Location). */
import type { Deps } from '../deps';
import type { Actor } from '../connections/connection-records';
import { toRunView, type RunView } from './run-records';
import { startRun } from './start-run';

export async function requestRun(deps: Deps, actor: Actor, connectionId: string, options: { confirmRemovals: boolean }): Promise<{ run: RunView; location: string }> {
  const run = await startRun(deps, { scope: actor, connectionId, trigger: 'manual', actorId: actor.userId, sourceIp: actor.sourceIp, confirmRemovals: options.confirmRemovals });
  // A manual start either returns its run or throws (409 while another is active).
  const started = run!;
  return { run: toRunView(started), location: `${deps.config.publicUrl}/v1/connections/${connectionId}/runs/${started.run_id}` };
}
