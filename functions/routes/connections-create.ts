import { ConnectionSchema, CreateConnectionBodySchema } from '../../shared/connections/schemas';
import { requestHeaders } from '../../shared/http/headers';
import { defineRoute, problem, versioned } from '../../shared/http/route';

export const route = defineRoute({
  method: 'POST', path: '/v1/connections', handler: 'connections-create', auth: 'bearer', permission: 'connections:write', tag: 'connections',
  summary: 'Create a connection (honours Idempotency-Key); the configuration is write-only',
  request: { body: CreateConnectionBodySchema, headers: { 'Idempotency-Key': requestHeaders.idempotencyKey } },
  responses: {
    201: { description: 'Created (or, for a retry with the same Idempotency-Key and body, the connection the first request created)', schema: ConnectionSchema, headers: versioned },
    409: problem('conflict: a request with this Idempotency-Key is still in progress; or limit_exceeded: the workspace has 1000 connections'),
    422: problem('unprocessable: scope or configuration do not fit the integration, or the Idempotency-Key was used with another body'),
  },
});
