import { defineRoute } from '../../shared/http/route';
import { OpenApiDocumentSchema } from '../../shared/openapi/schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/openapi.json', handler: 'openapi', auth: 'public', tag: 'service',
  summary: 'This OpenAPI document',
  responses: { 200: { description: 'OpenAPI 3.1 document', schema: OpenApiDocumentSchema } },
});
