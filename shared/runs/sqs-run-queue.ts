/** The run queue in AWS: SQS (standard queue, at-least-once; the worker is idempotent). */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { RunQueue } from './run-queue';
import { tracing } from '../tracing';

export function createSqsRunQueue(queueUrl: string, region: string): RunQueue {
  const client = tracing.captureClient(new SQSClient({ region }));
  return {
    async send(message, options = {}) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(message),
          ...(options.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.ceil(options.delaySeconds))) } : {}),
        }),
      );
    },
  };
}
