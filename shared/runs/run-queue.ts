/**
 * The queue that carries a run from step to step (and a deleted connection's purge, and the
 * export jobs: shared/exports/export-job.ts). In AWS it
 * is SQS with a dead-letter queue: a step that dies (crash, timeout) is delivered again after
 * its visibility timeout; locally the local host's in-process queue does the same. Delivery is
 * at least once, so every message is idempotent: a step checks the run's saved progress before
 * doing anything.
 */
import type { Deps } from '../deps';
import { createSqsRunQueue } from './sqs-run-queue';

export type RunMessage =
  | { type: 'run_step'; tenant_id: string; workspace_id: string; connection_id: string; run_id: string; step: number }
  | { type: 'purge_connection'; tenant_id: string; workspace_id: string; connection_id: string; pass: number }
  /** `slice`: the export's job this message runs (1 when absent), export-job.ts. */
  | { type: 'export'; tenant_id: string; workspace_id: string; export_id: string; slice?: number };

export interface RunQueue {
  /** `delaySeconds` up to 900 (SQS's limit): a step that must wait for a provider's rate limit. */
  send(message: RunMessage, options?: { delaySeconds?: number }): Promise<void>;
}

/** SQS allows a delay of at most 15 minutes. */
export const MAX_DELAY_SECONDS = 900;

/** One SQS client per deps (a Lambda's lives as long as its deps; a reset makes a new one from the new configuration). */
const sqsQueues = new WeakMap<Deps, RunQueue>();

/** The deployment's queue: the local host's when it installed one (deps), else SQS. */
export function runQueueOf(deps: Deps): RunQueue {
  if (deps.runQueue) return deps.runQueue;
  const url = deps.config.runs.queueUrl;
  if (!url) throw new Error('No run queue: TESSERA_RUN_QUEUE_URL is not set and the host installed none');
  let queue = sqsQueues.get(deps);
  if (!queue) sqsQueues.set(deps, (queue = createSqsRunQueue({ queueUrl: url, region: deps.config.region, endpoint: deps.config.awsEndpoints.sqs })));
  return queue;
}

/** Parses a message body; anything else is refused (a queue carries only what Tessera put there). */
export function parseRunMessage(body: string): RunMessage {
  const value = JSON.parse(body) as Partial<RunMessage> & Record<string, unknown>;
  const ids = ['tenant_id', 'workspace_id', ...(value.type === 'export' ? ['export_id'] : ['connection_id'])];
  if (!ids.every((k) => typeof value[k] === 'string')) throw new Error('run message without its scope');
  if (value.type === 'export' && (value.slice === undefined || (Number.isInteger(value.slice) && value.slice >= 1))) return value as RunMessage;
  if (value.type === 'run_step' && typeof value.run_id === 'string' && Number.isInteger(value.step)) return value as RunMessage;
  if (value.type === 'purge_connection' && Number.isInteger(value.pass)) return value as RunMessage;
  throw new Error(`unknown run message type ${String(value.type)}`);
}
