import { queueJob } from '../shared/jobs/job';
import { handleRunMessage } from '../shared/runs/run-worker';

/** Consumer of the run queue (SQS): one step of a run, or a deleted connection's purge. */
export const handler = queueJob('run-worker', ({ deps, body, deadlineMs }) => handleRunMessage(deps, body, { deadlineMs }));
