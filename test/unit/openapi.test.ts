import { describe, expect, it } from 'vitest';
import { routeList } from '../../functions/routes';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(routeList, 'https://api.example') as { openapi: string; paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };

  it('builds from the route table: one operation per entry, 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(operations).toHaveLength(routeList.length);
    for (const route of routeList) expect(doc.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.handler);
  });

  it('marks public and bearer routes', () => {
    expect(doc.paths['/v1/health']?.get?.security).toEqual([]);
    expect(doc.paths['/v1/me']?.get?.security).toEqual([{ bearer: [] }]);
  });
});
