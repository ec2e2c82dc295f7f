/**
 * The run queue of a deployment, and the messages it carries: only what Tessera put there is
 * taken from it.
 */
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../shared/deps';
import { parseRunMessage, runQueueOf, type RunQueue } from '../../shared/runs/run-queue';

const depsWith = (runQueue: RunQueue | undefined, queueUrl: string | undefined) => ({ runQueue, config: { region: 'eu-west-1', runs: { queueUrl }, awsEndpoints: {} } }) as unknown as Deps;
const scope = { tenant_id: 'ten_1', workspace_id: 'ws_1', connection_id: 'con_1' };

describe('the run queue of a deployment', () => {
  it('is the host\'s own when it installed one', () => {
    const local: RunQueue = { send: () => Promise.resolve() };
    expect(runQueueOf(depsWith(local, 'https://sqs.example/q'))).toBe(local);
  });

  it('is SQS otherwise, one client for the deps (new deps, from a new configuration, a new one), and refused without a queue URL', () => {
    expect(() => runQueueOf(depsWith(undefined, undefined))).toThrow('TESSERA_RUN_QUEUE_URL is not set');
    const deps = depsWith(undefined, 'https://sqs.example/q');
    const sqs = runQueueOf(deps);
    expect(typeof sqs.send).toBe('function');
    expect(runQueueOf(deps)).toBe(sqs);
    expect(runQueueOf(depsWith(undefined, 'https://sqs.example/other'))).not.toBe(sqs);
  });
});

describe('run messages', () => {
  it('takes a step or a purge with its scope', () => {
    expect(parseRunMessage(JSON.stringify({ type: 'run_step', ...scope, run_id: 'run_1', step: 2 }))).toEqual({ type: 'run_step', ...scope, run_id: 'run_1', step: 2 });
    expect(parseRunMessage(JSON.stringify({ type: 'purge_connection', ...scope, pass: 0 }))).toEqual({ type: 'purge_connection', ...scope, pass: 0 });
  });

  it('refuses a message without its scope, of another type, or without what its type needs', () => {
    expect(() => parseRunMessage(JSON.stringify({ type: 'run_step', tenant_id: 'ten_1', workspace_id: 'ws_1', run_id: 'run_1', step: 1 }))).toThrow('without its scope');
    expect(() => parseRunMessage(JSON.stringify({ type: 'wipe', ...scope }))).toThrow('unknown run message type wipe');
    expect(() => parseRunMessage(JSON.stringify({ type: 'run_step', ...scope, step: 1 }))).toThrow('unknown run message type run_step');
    expect(() => parseRunMessage(JSON.stringify({ type: 'run_step', ...scope, run_id: 'run_1', step: 1.5 }))).toThrow('unknown run message type run_step');
    expect(() => parseRunMessage(JSON.stringify({ type: 'purge_connection', ...scope }))).toThrow('unknown run message type purge_connection');
  });
});
