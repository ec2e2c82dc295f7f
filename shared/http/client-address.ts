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

/**
 * What the per-address rate limits count for a client address: an IPv4 address as itself, an
 * IPv6 address by its /64 (`2001:db8:0:1::/64`). One IPv6 subscriber, even the smallest, is
 * handed a whole /64 (RFC 6177, and SLAAC needs one), so counting full IPv6 addresses would
 * give anyone 2^64 fresh addresses; a /64 is what one client controls, as one IPv4 address is.
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4
 * peer) is that IPv4 address. A zone (`fe80::1%eth0`) is no part of the address. Anything
 * that is not an address (`unknown`) is counted as it is.
 */
export function rateLimitedAddressOf(address: string): string {
  const text = address.trim();
  const withoutZone = text.includes('%') ? text.slice(0, text.indexOf('%')) : text;
  if (isIP(withoutZone) !== 6) return text;
  const groups = ipv6Groups(withoutZone);
  const isV4Mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isV4Mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`isIP` said so), `::` and a dotted IPv4 tail expanded. */
function ipv6Groups(address: string): number[] {
  const groupsOf = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [parseInt(piece, 16)];
          const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const gap = address.indexOf('::');
  if (gap < 0) return groupsOf(address);
  const head = groupsOf(address.slice(0, gap));
  const tail = groupsOf(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
