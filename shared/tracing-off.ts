/**
 * Tracing off: what the Lambda bundles of an environment without tracing get in place of
 * shared/tracing.ts (infra/tracing-plugin.ts), so they carry neither the Tracer nor the X-Ray SDK.
 */
import type { Tracing } from './observability';

export const tracing: Tracing = {
  handlerMiddleware: () => undefined,
  traceAwsCall: (_call, run) => run(),
};
