/**
 * The functions no HTTP route calls, beside the route table: the CDK stack makes one function
 * of each with its trigger, and the local host runs the same handlers in process.
 * `handler` names the module `functions/<handler>.ts`.
 */
export interface JobDefinition {
  handler: string;
  description: string;
  trigger: { kind: 'queue'; queue: 'runs' } | { kind: 'schedule'; expression: string };
}

export const jobs = {
  runWorker: {
    handler: 'run-worker',
    description: 'Consumes the run queue: one checkpointed step of a discovery run, or the purge of a deleted connection',
    trigger: { kind: 'queue', queue: 'runs' },
  },
  runDispatcher: {
    handler: 'run-dispatcher',
    description: 'Starts the discovery runs that are due and resumes stalled ones',
    trigger: { kind: 'schedule', expression: 'rate(1 minute)' },
  },
} as const satisfies Record<string, JobDefinition>;

export const jobList: readonly JobDefinition[] = Object.values(jobs);
