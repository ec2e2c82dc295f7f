/**
 * Form bodies (SAML HTTP-POST binding, OIDC form_post) as API Gateway hands them to a function:
 * base64-encoded, with their content type; decoded into fields for the route's schema.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors';
import { formBody } from '../../shared/http/middleware/form-body';
import type { TesseraRequest } from '../../shared/http/request-state';

function requestWith(body: string | undefined, contentType: string | undefined, base64 = true): TesseraRequest {
  const event = {
    headers: contentType ? { 'Content-Type': contentType } : {},
    ...(body !== undefined ? { body: base64 ? Buffer.from(body).toString('base64') : body } : {}),
    isBase64Encoded: base64 && body !== undefined,
  } as unknown as APIGatewayProxyEventV2;
  return { event, context: {}, response: undefined, error: undefined, internal: {} } as unknown as TesseraRequest;
}

const run = async (request: TesseraRequest) => {
  await (formBody().before as (r: TesseraRequest) => unknown)(request);
  return request.event.body as unknown;
};

describe('formBody', () => {
  it('decodes a base64 body into its fields', async () => {
    const request = requestWith('SAMLResponse=PHg%2BPC94Pg%3D%3D&RelayState=abc+def', 'application/x-www-form-urlencoded; charset=utf-8');
    expect(await run(request)).toEqual({ SAMLResponse: 'PHg+PC94Pg==', RelayState: 'abc def' });
    expect(request.event.isBase64Encoded).toBe(false);
  });

  it('reads a plain-text body too, and no body as no fields', async () => {
    expect(await run(requestWith('code=1&state=2', 'application/x-www-form-urlencoded', false))).toEqual({ code: '1', state: '2' });
    expect(await run(requestWith(undefined, undefined))).toEqual({});
  });

  it('refuses another content type and a field given twice', async () => {
    await expect(run(requestWith('{"a":1}', 'application/json', false))).rejects.toBeInstanceOf(ValidationError);
    await expect(run(requestWith('a=1', undefined))).rejects.toBeInstanceOf(ValidationError);
    await expect(run(requestWith('RelayState=a&RelayState=b', 'application/x-www-form-urlencoded'))).rejects.toMatchObject({ errors: [{ path: 'RelayState', message: 'must be given once' }] });
  });
});
