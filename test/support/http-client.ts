/**
 * A tiny fetch client for the API tests: JSON in, parsed JSON (or problem+json) out, and the
 * raw text for anything else. It never throws on an HTTP status; tests assert on it.
 */
export interface HttpResponse {
  status: number;
  /** Lower-cased names; repeated headers comma-joined (set-cookie lines joined with ", "). */
  headers: Record<string, string>;
  /** Parsed when the answer is JSON or problem+json, else undefined. */
  body: unknown;
  text: string;
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (malformed JSON, form bodies, oversized payloads); wins over `body`. */
  rawBody?: string | Uint8Array;
  /** A bearer credential: access token, PAT or mfa_token. */
  token?: string;
  /** Extra headers (they win over the defaults); undefined values are left out. */
  headers?: Record<string, string | undefined>;
}

export interface HttpClient {
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
}

export function api(baseUrl: string): HttpClient {
  return {
    async request(method, path, options = {}) {
      const headers: Record<string, string> = {};
      // A copy of a byte body: fetch's types (DOM lib, pulled in by @xmldom's types) want an ArrayBuffer-backed view.
      let body: string | Uint8Array<ArrayBuffer> | undefined;
      if (options.rawBody !== undefined) {
        body = typeof options.rawBody === 'string' ? options.rawBody : options.rawBody.slice();
      } else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      for (const [name, value] of Object.entries(options.headers ?? {})) {
        if (value !== undefined) headers[name.toLowerCase()] = value;
      }

      const res = await fetch(new URL(path, baseUrl), { method, headers, body, redirect: 'manual' });
      const text = await res.text();
      const type = res.headers.get('content-type') ?? '';
      const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(type) && text !== '';
      return {
        status: res.status,
        headers: headersOf(res.headers),
        body: isJson ? (JSON.parse(text) as unknown) : undefined,
        text,
      };
    },
  };
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
