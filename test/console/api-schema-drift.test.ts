/**
 * The console's API types cannot drift from the API: the committed
 * `console/src/api/schema.d.ts` is exactly what openapi-typescript makes of the document the
 * running service serves at `GET /v1/openapi.json`. After a route change, `npm run
 * build:console` (or `npm start`) regenerates it.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSchemaTypes } from '../../console/scripts/api-schema-source';
import { schemaFile } from '../../console/scripts/build-console';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

describe('the console API types', () => {
  it('are the types of the served OpenAPI document', async () => {
    const served = await fetch(`${host.url}/v1/openapi.json`);
    expect(served.status).toBe(200);
    const expected = await apiSchemaTypes((await served.json()) as Record<string, unknown>);
    expect(await readFile(schemaFile, 'utf8')).toBe(expected);
  });
});
