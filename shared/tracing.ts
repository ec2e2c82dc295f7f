/**
 * Tracing on: the Powertools Tracer, made on first use. Outside Lambda (the local host, tests)
 * the Tracer turns itself off, so everything here passes through. A Lambda bundle of an
 * environment with `tracing: false` never contains this module: infra/tracing-plugin.ts puts
 * shared/tracing-off.ts in its place, so those bundles carry no X-Ray SDK.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { SERVICE_NAME, type Tracing } from './observability';

let tracer: Tracer | undefined;
const tracerOf = () =>
  (tracer ??= new Tracer({
    serviceName: SERVICE_NAME,
    // Outbound calls go through fetch, which the http/https patch would not see anyway.
    captureHTTPsRequests: false,
  }));

export const tracing: Tracing = {
  // Responses carry tokens and secrets shown once: never copied into a trace.
  handlerMiddleware: () => captureLambdaHandler(tracerOf(), { captureResponse: false }),
  async traceAwsCall(call, run) {
    const tracer = tracerOf();
    const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
    if (!parent) return run();
    const subsegment = parent.addNewSubsegment(call.service);
    subsegment.addAttribute('namespace', 'aws');
    subsegment.addAttribute('aws', { operation: call.operation, region: call.region });
    try {
      const answer = await run();
      subsegment.addAttribute('http', { response: { status: answer.status } });
      if (answer.status === 429) subsegment.addThrottleFlag();
      if (answer.status >= 500) subsegment.addFaultFlag();
      else if (answer.status >= 400) subsegment.addErrorFlag();
      subsegment.close();
      return answer;
    } catch (error) {
      subsegment.close(error as Error);
      throw error;
    }
  },
};
