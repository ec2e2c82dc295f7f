/**
 * The TypeScript types of the API, as `openapi-typescript` writes them from the OpenAPI document
 * the service serves at `GET /v1/openapi.json`. One function, used by the generator script (which
 * writes `console/src/api/schema.d.ts`) and by the test that holds the committed file to the
 * document served, so the console's client cannot drift from the API.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const HEADER = '/**\n * Generated from the served OpenAPI document by `npm run build:console`: do not edit.\n */\n\n';

export async function apiSchemaTypes(document: Record<string, unknown>): Promise<string> {
  // The server URL is not part of any type; a fixed one keeps the output the same on every origin.
  const withoutOrigin = { ...document, servers: [{ url: '/' }] } as unknown as OpenAPI3;
  return HEADER + astToString(await openapiTS(withoutOrigin, { alphabetize: true }));
}
