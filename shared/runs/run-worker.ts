/** What the run queue's consumer does with a message: a run step, a deleted connection's purge, or an export. */
import type { Deps } from '../deps';
import { runExport } from '../exports/export-job';
import { purgeConnectionData } from './purge';
import { parseRunMessage } from './run-queue';
import { executeRunStep } from './run-step';

export async function handleRunMessage(deps: Deps, body: string, options: { deadlineMs: number }): Promise<void> {
  const message = parseRunMessage(body);
  if (message.type === 'run_step') await executeRunStep(deps, message, options);
  else if (message.type === 'export') await runExport(deps, message, options);
  else await purgeConnectionData(deps, message, options);
}
