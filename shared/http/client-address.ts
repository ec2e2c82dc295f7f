/**
 * The one owner of "which address is the client": what rate limits count and audit events
 * record. API Gateway's `sourceIp` is the peer of its TCP connection, which behind CloudFront
 * is a CloudFront edge. CloudFront then sends the viewer's address in `x-tessera-viewer-address`
 * (written by the distribution's viewer-request function, infra/edge.ts: a bare address; the
 * `addr:port` forms of CloudFront-Viewer-Address, IPv6 unbracketed or bracketed, are read too),
 * but anyone calling the API directly can send that header as well. So it is believed only
 * when the request also carries the origin-verify header with the secret CloudFront adds on its
 * way to the origin (compared in constant time); otherwise, or when the value is not an
 * address, the connection's own source address stands.
 */
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** The header CloudFront adds to every origin request, holding the origin-verify secret. */
export const ORIGIN_VERIFY_HEADER = 'x-tessera-origin-verify';
/** The viewer's address, as the distribution's viewer-request function writes it. */
export const VIEWER_ADDRESS_HEADER = 'x-tessera-viewer-address';

function headerValue(headers: APIGatewayProxyEventV2['headers'] | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
}

function sameSecret(sent: string, expected: string): boolean {
  const a = Buffer.from(sent, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  // timingSafeEqual needs equal lengths; the length of the secret is no secret.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An address, `addr:port`, `[v6]:port` or CloudFront's unbracketed `v6:port` → the address; undefined for anything else. */
export function viewerAddressOf(value: string): string | undefined {
  const text = value.trim();
  if (isIP(text)) return text;
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text);
  const [address, port] = bracketed ? [bracketed[1]!, bracketed[2]!] : [text.slice(0, text.lastIndexOf(':')), text.slice(text.lastIndexOf(':') + 1)];
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) return undefined;
  return isIP(address) ? address : undefined;
}

/**
 * The client's address: the viewer address when the request provably came through CloudFront
 * (`originVerifySecret` configured and sent), the connection's source address otherwise.
 */
export function clientAddressOf(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>, originVerifySecret: string | undefined): string {
  const sourceIp = (event.requestContext as Partial<APIGatewayProxyEventV2['requestContext']> | undefined)?.http?.sourceIp ?? 'unknown';
  if (!originVerifySecret) return sourceIp;
  const sent = headerValue(event.headers, ORIGIN_VERIFY_HEADER);
  if (sent === undefined || !sameSecret(sent, originVerifySecret)) return sourceIp;
  const viewer = headerValue(event.headers, VIEWER_ADDRESS_HEADER);
  return (viewer === undefined ? undefined : viewerAddressOf(viewer)) ?? sourceIp;
}
