/**
 * A loopback HTTP server (port 0) for one provider fake: the fake turns a request into a reply
 * (at once, or later: a paused fake answers when the test lets it), or `'hang'` to accept the
 * request and never answer (timeout tests). `close` also drops the
 * hanging and kept-alive connections, so a test file never waits on them.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface LocalReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type LocalHandler = (request: LocalRequest) => LocalReply | 'hang' | Promise<LocalReply | 'hang'>;

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** On `port` (0, the default: any free one) of 127.0.0.1. */
export async function startLocalServer(handler: LocalHandler, port = 0): Promise<LocalServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: LocalRequest = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      void (async () => {
        let reply: LocalReply | 'hang';
        try {
          reply = await handler(request);
        } catch (error) {
          reply = { status: 500, body: String(error) };
        }
        if (reply === 'hang' || res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? '');
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): LocalReply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
