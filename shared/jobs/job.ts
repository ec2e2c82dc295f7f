/**
 * The counterpart of `endpoint` for functions that no HTTP request calls: a queue consumer
 * (SQS) and a scheduled tick (EventBridge). Same deps, same structured logs and metrics; a
 * message that fails is reported back to SQS alone (partial batch response), so the queue
 * redelivers it and, after its maxReceiveCount, moves it to the dead-letter queue.
 */
import type { Context, EventBridgeEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps, type Deps } from '../deps';

/** What a job leaves itself to commit and hand over before the function's own timeout. */
export const JOB_SAFETY_MARGIN_MS = 20_000;

export interface JobContext {
  deps: Deps;
  /** Epoch milliseconds by which the job must have stopped working. */
  deadlineMs: number;
}

const deadlineOf = (context: Pick<Context, 'getRemainingTimeInMillis'>) => Date.now() + Math.max(1_000, context.getRemainingTimeInMillis() - JOB_SAFETY_MARGIN_MS);

export type QueueJobHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

export function queueJob(name: string, fn: (ctx: JobContext & { body: string; messageId: string }) => Promise<void>): QueueJobHandler {
  return async (event, context) => {
    const deps = await getDeps();
    const logger = deps.observability.logger.createChild({ persistentKeys: { job: name, aws_request_id: context.awsRequestId } });
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        await fn({ deps, deadlineMs: deadlineOf(context), body: record.body, messageId: record.messageId });
      } catch (error) {
        logger.error('message failed; the queue delivers it again', { message_id: record.messageId, error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    deps.observability.flush();
    return { batchItemFailures };
  };
}

/** A report with any non-empty list or non-zero count in it. */
function didSomething(report: unknown): boolean {
  if (Array.isArray(report)) return report.length > 0;
  if (typeof report === 'number') return report !== 0;
  if (report && typeof report === 'object') return Object.values(report).some(didSomething);
  return report !== undefined && report !== null && report !== false;
}

export type ScheduledJobHandler = (event: EventBridgeEvent<string, unknown>, context: Context) => Promise<void>;

export function scheduledJob(name: string, fn: (ctx: JobContext) => Promise<unknown>): ScheduledJobHandler {
  return async (_event, context) => {
    const deps = await getDeps();
    const logger = deps.observability.logger.createChild({ persistentKeys: { job: name, aws_request_id: context.awsRequestId } });
    try {
      const report = await fn({ deps, deadlineMs: deadlineOf(context) });
      // A tick that did nothing is not for a person to read (one every interval, all day long).
      if (didSomething(report)) logger.info('tick', { report });
      else logger.debug('tick', { report });
    } finally {
      deps.observability.flush();
    }
  };
}
