/** What a handler returns: a status, a JSON body (or raw text) and headers. */
export interface EndpointResult {
  statusCode: number;
  body?: unknown;
  /** Sent as is, with `contentType`; for XML metadata and similar. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, headers?: Record<string, string>): EndpointResult => ({ statusCode: 200, body, ...(headers ? { headers } : {}) });
export const created = (body: unknown, headers?: Record<string, string>): EndpointResult => ({ statusCode: 201, body, ...(headers ? { headers } : {}) });
export const accepted = (body?: unknown, headers?: Record<string, string>): EndpointResult => ({ statusCode: 202, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
export const noContent = (): EndpointResult => ({ statusCode: 204 });
export const redirect = (location: string): EndpointResult => ({ statusCode: 302, headers: { location } });
export const text = (statusCode: number, body: string, contentType: string): EndpointResult => ({ statusCode, text: body, contentType });
