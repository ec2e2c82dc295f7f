/**
 * The run worker of the discovery bench in a process of its own, bundled by esbuild as the
 * stack bundles the Lambda (no TypeScript loader), so its peak memory is the worker's alone.
 * The parent hands it SQS events over IPC and carries the messages it queues; configuration
 * comes from the environment like a Lambda's.
 */
import type { SQSEvent } from 'aws-lambda';
import { handler } from '../functions/run-worker';
import { loadConfig } from '../shared/config';
import { setDeps } from '../shared/deps';
import { createDeps } from '../functions/start/deps-assembly';
import type { RunMessage } from '../shared/runs/run-queue';
import { lambdaContext } from '../infra/local/lambda-context';

type FromParent = { kind: 'event'; id: number; event: SQSEvent };

const send = (message: unknown) => process.send!(message);
/** What the event asked for, as the parent reports where the peak came: `run_step 7`, `export`. */
const stepOf = (event: SQSEvent): string => {
  const body = JSON.parse(event.Records[0]!.body) as { type: string; step?: number };
  return body.step === undefined ? body.type : `${body.type} ${body.step}`;
};
setDeps(
  await createDeps(loadConfig(), {
    runQueue: {
      send: (message: RunMessage, options) => {
        send({ kind: 'queue', message, delaySeconds: options?.delaySeconds ?? 0 });
        return Promise.resolve();
      },
    },
  }),
);
process.on('message', (message: FromParent) => {
  void handler(message.event, lambdaContext('run-worker', 180_000, 512)).then((result) =>
    send({ kind: 'result', id: message.id, failures: result.batchItemFailures.length, maxRssKb: process.resourceUsage().maxRSS, heapUsedKb: process.memoryUsage().heapUsed / 1024, step: stepOf(message.event) }),
  );
});
send({ kind: 'ready', rssKb: process.memoryUsage().rss / 1024 });
