/**
 * The scheduler of the local host: what the EventBridge rule does in AWS, on the host's own
 * clock. Every interval it calls the dispatcher function's handler (`functions/run-dispatcher.ts`),
 * never two ticks at once.
 */
import { randomUUID } from 'node:crypto';
import type { EventBridgeEvent } from 'aws-lambda';
import type { ScheduledJobHandler } from '../../shared/jobs/job';
import { functionTimeoutSeconds } from '../function-timeouts';
import { lambdaContext } from './lambda-context';

export interface LocalScheduler {
  /** One tick now (after the one in progress, if any). */
  tick(): Promise<void>;
  /** No more ticks; resolves when the one in progress (if any) has ended. */
  stop(): Promise<void>;
}

const loadDispatcher = async (): Promise<ScheduledJobHandler> => ((await import('../../functions/run-dispatcher')) as { handler: ScheduledJobHandler }).handler;

export function startLocalScheduler(options: { intervalMs: number; onError?: (error: unknown) => void }): LocalScheduler {
  let running: Promise<void> = Promise.resolve();
  let handler: Promise<ScheduledJobHandler> | undefined;
  const onError = options.onError ?? ((error) => console.error('[scheduler] tick failed:', error));

  let stopped = false;
  const tick = () => {
    running = running.then(async () => {
      if (stopped) return;
      const dispatch = await (handler ??= loadDispatcher());
      const now = new Date().toISOString();
      const event = { id: randomUUID(), version: '0', account: '000000000000', time: now, region: 'us-east-1', resources: [], source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} } as EventBridgeEvent<string, unknown>;
      await dispatch(event, lambdaContext('run-dispatcher', functionTimeoutSeconds('run-dispatcher') * 1000, 256)).catch(onError);
    });
    return running;
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  return {
    tick,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      return running;
    },
  };
}
