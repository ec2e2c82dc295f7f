import { createConnectionExamples } from '../shared/connections/create-examples';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { buildOpenApiDocument } from '../shared/openapi/openapi-document';
import { routes } from './routes';
import { route } from './routes/openapi';

let document: Record<string, unknown> | undefined;

export const handler = endpoint(route, ({ deps }) =>
  ok((document ??= buildOpenApiDocument(routes, deps.config.publicUrl, { requestExamples: { connectionsCreate: createConnectionExamples() } }))),
);
