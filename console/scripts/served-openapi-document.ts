/** The OpenAPI document as the openapi function serves it (functions/openapi.ts builds the same). */
import { routes } from '../../functions/routes';
import { createConnectionExamples } from '../../shared/connections/create-examples';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';

export function servedOpenApiDocument(): Record<string, unknown> {
  return buildOpenApiDocument(routes, '/', { requestExamples: { connectionsCreate: createConnectionExamples() } });
}
