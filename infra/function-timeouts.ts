/**
 * How long each function may run: the one owner of Lambda timeouts. The stack sets them
 * (route-function.ts), and the local host gives each handler the same budget as its Lambda
 * context's remaining time (infra/local/server.ts, run-queue.ts, scheduler.ts), where the
 * handler's middy chain ends an invocation that outlives it, as in AWS. Nothing from CDK
 * here: the local host loads this module.
 *
 * The budgets inside a function (test/infra/stack.test.ts asserts each against the template):
 * - `connections-test`: reads before the provider call, the provider's limit, then the reserve
 *   that commits the test record and the audit event (shared/connections/connection-test-budget.ts)
 *   must fit in the timeout, so a hanging provider ends as a `failure`, never as a 5xx.
 * - `run-worker`: a step reads for at most RUN_STEP_SECONDS (shared/runs/read-step.ts, which
 *   also aborts every provider request in flight at that deadline, so no single request
 *   outlives it), and the job keeps JOB_SAFETY_MARGIN_MS of the invocation for the checkpoint
 *   and the next message (shared/jobs/job.ts); both fit in RUN_WORKER_TIMEOUT_SECONDS.
 */
import { CONNECTION_TEST_WRITE_RESERVE_MS } from '../shared/connections/connection-test-budget';

/** Every API route unless listed below: requests answer in well under a second. */
export const ROUTE_TIMEOUT_SECONDS = 10;

/** The provider's limit in a connection test, as the stack configures it (TESSERA_CONNECTOR_TEST_TIMEOUT_MS). */
export const CONNECTOR_TEST_TIMEOUT_MS = 10_000;
/** What a connection test does before calling the provider: the caller, the connection, its license, the KMS decrypt. */
const CONNECTION_TEST_SETUP_MS = 2_000;
export const CONNECTION_TEST_TIMEOUT_SECONDS = Math.ceil((CONNECTION_TEST_SETUP_MS + CONNECTOR_TEST_TIMEOUT_MS + CONNECTION_TEST_WRITE_RESERVE_MS) / 1000);

/** The worker's Lambda timeout: a step reads for at most RUN_STEP_SECONDS, then commits. */
export const RUN_WORKER_TIMEOUT_SECONDS = 180;
export const RUN_STEP_SECONDS = 120;

export const RUN_DISPATCHER_TIMEOUT_SECONDS = 60;

const TIMEOUT_SECONDS: Readonly<Record<string, number>> = {
  'connections-test': CONNECTION_TEST_TIMEOUT_SECONDS,
  'run-worker': RUN_WORKER_TIMEOUT_SECONDS,
  'run-dispatcher': RUN_DISPATCHER_TIMEOUT_SECONDS,
};

/**
 * Whether a handler's timeout is sized from a budget here (and so not an environment's to
 * change; infra/stack-settings.ts `timeouts` sets the others per environment in AWS).
 */
export function hasBudgetedTimeout(handler: string): boolean {
  return Object.hasOwn(TIMEOUT_SECONDS, handler);
}

/** The Lambda timeout of a handler's function, in seconds. */
export function functionTimeoutSeconds(handler: string): number {
  return TIMEOUT_SECONDS[handler] ?? ROUTE_TIMEOUT_SECONDS;
}
