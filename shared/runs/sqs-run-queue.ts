/**
 * The run queue in AWS: SQS (standard queue, at-least-once; the worker is idempotent), sent to
 * over SQS's AWS JSON 1.0 protocol (`AmazonSQS.SendMessage`, `shared/aws/aws-json-client.ts`),
 * query-compatible as SQS is: errors are named as the SDK named them (`QueueDoesNotExist`,
 * `AccessDenied`…).
 */
import { createHash } from 'node:crypto';
import { createAwsJsonClient } from '../aws/aws-json-client';
import type { RunQueue } from './run-queue';

export interface SqsRunQueueOptions {
  queueUrl: string;
  region: string;
  /** An endpoint other than `https://sqs.<region>.amazonaws.com` (the tests' SQS). */
  endpoint?: string | undefined;
}

export function createSqsRunQueue({ queueUrl, region, endpoint }: SqsRunQueueOptions): RunQueue {
  const sqs = createAwsJsonClient({ service: 'sqs', targetPrefix: 'AmazonSQS', jsonVersion: '1.0', tracedName: 'SQS', queryCompatibleNamespace: 'com.amazonaws.sqs' }, { region, endpoint });
  return {
    async send(message, options = {}) {
      const body = JSON.stringify(message);
      const sent = await sqs.call<{ MD5OfMessageBody?: string }>('SendMessage', {
        QueueUrl: queueUrl,
        MessageBody: body,
        ...(options.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.ceil(options.delaySeconds))) } : {}),
      });
      // The SDK checks the body SQS stored against the MD5 it answers; so does this sender.
      if (sent.MD5OfMessageBody !== createHash('md5').update(body, 'utf8').digest('hex')) throw new Error('SQS answered SendMessage with an MD5 that is not the message body\'s');
    },
  };
}
