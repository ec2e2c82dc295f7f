/**
 * The run queue of the local host: what SQS does in AWS, in process. Messages (with their
 * delay) are delivered to the very handler the worker function runs (`functions/run-worker.ts`,
 * called with an SQS event), one at a time per worker; a message whose handler fails is
 * delivered again after a pause, and after `maxReceiveCount` deliveries it is set aside as a
 * dead letter, as the SQS redrive policy does. Messages in flight are lost when the process
 * stops, like a crashed Lambda's: the stalled-run recovery resumes their runs.
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import type { QueueJobHandler } from '../../shared/jobs/job';
import type { RunMessage, RunQueue } from '../../shared/runs/run-queue';
import { functionTimeoutSeconds } from '../function-timeouts';
import { lambdaContext } from './lambda-context';

export interface LocalRunQueueOptions {
  /** The worker function's handler (imported lazily by default). */
  handler?: () => Promise<QueueJobHandler>;
  /** Messages handled at once. */
  workers?: number;
  maxReceiveCount?: number;
  redeliveryDelayMs?: number;
  /** The worker function's timeout, as its Lambda context reports it. */
  timeoutMs?: number;
  /** Tests: decide per delivery whether it reaches the worker (`drop` loses it, as a crash would). */
  beforeDelivery?: (message: RunMessage, receiveCount: number) => 'deliver' | 'drop';
  onDeadLetter?: (message: RunMessage) => void;
}

export interface LocalRunQueue extends RunQueue {
  /** Resolves when nothing is queued, delayed or being handled. */
  idle(): Promise<void>;
  readonly deadLetters: readonly RunMessage[];
  readonly delivered: number;
  stop(): void;
}

interface Envelope {
  id: string;
  body: string;
  message: RunMessage;
  receiveCount: number;
}

const loadWorker = async (): Promise<QueueJobHandler> => ((await import('../../functions/run-worker')) as { handler: QueueJobHandler }).handler;

export function createLocalRunQueue(options: LocalRunQueueOptions = {}): LocalRunQueue {
  const workers = options.workers ?? 2;
  const maxReceiveCount = options.maxReceiveCount ?? 3;
  const redeliveryDelayMs = options.redeliveryDelayMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? functionTimeoutSeconds('run-worker') * 1000;
  const ready: Envelope[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const deadLetters: RunMessage[] = [];
  const idleWaiters: (() => void)[] = [];
  let busy = 0;
  let delivered = 0;
  let stopped = false;
  let handler: Promise<QueueJobHandler> | undefined;

  const isIdle = () => ready.length === 0 && timers.size === 0 && busy === 0;
  const settle = () => {
    if (isIdle()) for (const resolve of idleWaiters.splice(0)) resolve();
  };

  const later = (envelope: Envelope, delayMs: number) => {
    if (stopped) return;
    if (delayMs <= 0) {
      ready.push(envelope);
      pump();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      ready.push(envelope);
      pump();
    }, delayMs);
    timers.add(timer);
  };

  const deliver = async (envelope: Envelope) => {
    envelope.receiveCount += 1;
    if (options.beforeDelivery?.(envelope.message, envelope.receiveCount) === 'drop') return;
    delivered += 1;
    const run = await (handler ??= (options.handler ?? loadWorker)());
    const event: SQSEvent = { Records: [sqsRecord(envelope)] };
    let failed = true;
    try {
      failed = (await run(event, lambdaContext('run-worker', timeoutMs, 512))).batchItemFailures.length > 0;
    } catch {
      failed = true;
    }
    if (!failed) return;
    if (envelope.receiveCount >= maxReceiveCount) {
      deadLetters.push(envelope.message);
      options.onDeadLetter?.(envelope.message);
    } else {
      later(envelope, redeliveryDelayMs);
    }
  };

  const pump = () => {
    while (!stopped && busy < workers && ready.length > 0) {
      const envelope = ready.shift()!;
      busy += 1;
      void deliver(envelope).finally(() => {
        busy -= 1;
        pump();
        settle();
      });
    }
    settle();
  };

  return {
    send(message, sendOptions = {}) {
      later({ id: randomUUID(), body: JSON.stringify(message), message, receiveCount: 0 }, (sendOptions.delaySeconds ?? 0) * 1000);
      return Promise.resolve();
    },
    idle: () => (isIdle() ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    get deadLetters() {
      return deadLetters;
    },
    get delivered() {
      return delivered;
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      ready.length = 0;
      settle();
    },
  };
}

function sqsRecord(envelope: Envelope): SQSEvent['Records'][number] {
  return {
    messageId: envelope.id,
    receiptHandle: envelope.id,
    body: envelope.body,
    attributes: {
      ApproximateReceiveCount: String(envelope.receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:tessera-local-runs',
    awsRegion: 'us-east-1',
  };
}
