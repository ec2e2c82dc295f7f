import { createConnectionExamples } from '../shared/connections/create-examples';
import { publicEndpoint } from '../shared/http/public-endpoint';
import { ok } from '../shared/http/responses';
import { buildOpenApiDocument } from '../shared/openapi/openapi-document';
import { routes } from './routes';
import { route } from './routes/openapi';

let document: Record<string, unknown> | undefined;

export const handler = publicEndpoint(route, ({ deps }) =>
  ok((document ??= buildOpenApiDocument(routes, deps.config.publicUrl, { requestExamples: { connectionsCreate: createConnectionExamples() } }))),
);
