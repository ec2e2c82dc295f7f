/**
 * A local Amazon SQS for the run queue's sender, over SQS's current wire protocol (AWS JSON 1.0,
 * `X-Amz-Target: AmazonSQS.<Operation>`, SigV4 with service `sqs`; errors carry
 * `x-amzn-query-error: <Query code>;Sender` beside `__type`, as SQS does since it moved from the
 * Query protocol).
 *
 * What it reproduces of the SQS API reference:
 * - SendMessage to a queue URL (`<endpoint>/<account>/<name>`), `DelaySeconds` 0–900: answers
 *   `MessageId` and `MD5OfMessageBody`, the MD5 the SDK checks the body against.
 * - An unknown queue is 400 `QueueDoesNotExist` (`AWS.SimpleQueueService.NonExistentQueue`,
 *   "The specified queue does not exist."); a delay over 900 s is `InvalidParameterValue`.
 * - 400 `AccessDeniedException` (`AccessDenied`) when the caller's policy does not allow
 *   `sqs:SendMessage` on the queue's ARN.
 */
import { createHash, randomUUID } from 'node:crypto';
import { startLocalServer } from '../../../infra/local/stand-ins/local-server';
import { CALLER_ARN, TEST_ACCOUNT, TEST_REGION } from './caller';
import { ALLOW_ALL, isAllowed, notAuthorizedMessage, type IamStatement } from './iam-policy';
import { answerJsonRequest, AwsJsonError, stringMember } from './json-protocol';

export interface QueuedMessage {
  body: string;
  delaySeconds: number;
}

export interface SqsServer {
  /** For `AWS_ENDPOINT_URL_SQS`. */
  endpoint: string;
  policy: IamStatement[];
  /** A queue; its URL. */
  createQueue(name: string): string;
  deleteQueue(url: string): void;
  /** What the queue holds, in order of arrival (nothing is received from it here). */
  messages(url: string): QueuedMessage[];
  close(): Promise<void>;
}

export async function startSqsServer(region = TEST_REGION): Promise<SqsServer> {
  const queues = new Map<string, { arn: string; messages: QueuedMessage[] }>();
  const server: SqsServer = {
    endpoint: '',
    policy: ALLOW_ALL,
    createQueue(name) {
      const url = `${server.endpoint}/${TEST_ACCOUNT}/${name}`;
      queues.set(url, { arn: `arn:aws:sqs:${region}:${TEST_ACCOUNT}:${name}`, messages: [] });
      return url;
    },
    deleteQueue: (url) => void queues.delete(url),
    messages: (url) => queues.get(url)?.messages ?? [],
    close: () => Promise.resolve(),
  };
  const local = await startLocalServer((request) =>
    answerJsonRequest(request, { version: '1.0', targetPrefix: 'AmazonSQS', signingName: 'sqs', region }, ({ operation, input }) => {
      if (operation !== 'SendMessage') throw new AwsJsonError({ status: 400, type: 'com.amazonaws.sqs#UnsupportedOperation', message: `AmazonSQS.${operation} is not reproduced here`, queryCode: 'AWS.SimpleQueueService.UnsupportedOperation' });
      const queue = queues.get(String(input.QueueUrl));
      const arn = queue?.arn ?? `arn:aws:sqs:${region}:${TEST_ACCOUNT}:${String(input.QueueUrl).split('/').pop()}`;
      if (!isAllowed(server.policy, 'sqs:SendMessage', arn)) {
        throw new AwsJsonError({ status: 400, type: 'com.amazon.coral.service#AccessDeniedException', message: notAuthorizedMessage(CALLER_ARN, 'sqs:sendmessage', arn), queryCode: 'AccessDenied' });
      }
      if (!queue) throw new AwsJsonError({ status: 400, type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.', queryCode: 'AWS.SimpleQueueService.NonExistentQueue' });
      const delaySeconds = Number(input.DelaySeconds ?? 0);
      if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 900) {
        throw new AwsJsonError({ status: 400, type: 'com.amazonaws.sqs#InvalidParameterValue', message: `Value ${delaySeconds} for parameter DelaySeconds is invalid. Reason: must be between 0 and 900, if provided.`, queryCode: 'InvalidParameterValue' });
      }
      const body = stringMember(input, 'MessageBody');
      queue.messages.push({ body, delaySeconds });
      return { MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(body, 'utf8').digest('hex') };
    }),
  );
  server.endpoint = local.url;
  server.close = () => local.close();
  return server;
}
