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
  captureClient: (client) => tracerOf().captureAWSv3Client(client),
};
