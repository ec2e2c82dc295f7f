import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { buildOpenApiDocument } from '../shared/openapi/openapi-document';
import { routeList, routes } from './routes';

let document: Record<string, unknown> | undefined;

export const handler = endpoint(routes.openapi, ({ deps }) => ok((document ??= buildOpenApiDocument(routeList, deps.config.publicUrl))));
