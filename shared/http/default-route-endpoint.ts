/**
 * `defaultRouteEndpoint(routes)`: the function behind the API's `$default` route, which API
 * Gateway hands every request no route of the table takes. Without it API Gateway itself would
 * answer `{"message":"Not Found"}`, outside the contract's problem+json. It answers as the
 * local host does, from the same route table: 405 with `Allow`, or 404. It reads no credential
 * and no body, and touches nothing.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { tracing } from '../tracing';
import type { LambdaHandler } from './endpoint-chain';
import { requestScope } from './middleware/request-scope';
import { unmatchedRequestError, type RouteTemplate } from './route-match';

export const DEFAULT_ROUTE_KEY = '$default';

export function defaultRouteEndpoint(routes: readonly RouteTemplate[]): LambdaHandler {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>();
  const traced = tracing.handlerMiddleware();
  if (traced) chain.use(traced);
  return chain.use(requestScope(DEFAULT_ROUTE_KEY)).handler((event) => {
    throw unmatchedRequestError(routes, event.requestContext.http.method, event.rawPath);
  });
}
