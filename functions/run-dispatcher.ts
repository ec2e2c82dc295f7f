import { scheduledJob } from '../shared/jobs/job';
import { dispatchTick } from '../shared/runs/dispatcher';

/** The scheduler's tick (EventBridge, every minute): due connections start, stalled runs resume. */
export const handler = scheduledJob('run-dispatcher', ({ deps }) => dispatchTick(deps));
