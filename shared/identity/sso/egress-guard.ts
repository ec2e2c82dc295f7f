/**
 * Outbound requests to an address a tenant admin chose (the OIDC issuer, and the token and
 * JWKS endpoints its discovery document names) must not reach the function's own network:
 * loopback, private, link-local (instance metadata), carrier-grade NAT and the like. In the aws
 * stage every such request resolves the host first and refuses when any address it resolves
 * to is not public. Local mode (tests, local IdPs on loopback) is not guarded.
 *
 * This is a first line, not a sandbox: the fetch that follows resolves the name again, so a
 * DNS answer that changes in between (rebinding) is not caught.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { CustomFetch } from 'openid-client';

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96]] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !nonPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  return !nonPublic.check(address, 'ipv6');
}

export class EgressRefusedError extends Error {
  constructor(host: string) {
    super(`Refusing to connect to ${host}: it resolves to a non-public address`);
    this.name = 'EgressRefusedError';
  }
}

export type Resolve = (host: string) => Promise<{ address: string }[]>;
const resolveAll: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** Throws unless every address `url`'s host resolves to is public. */
export async function assertPublicDestination(url: URL, resolve: Resolve = resolveAll): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host }] : await resolve(host);
  if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) throw new EgressRefusedError(host);
}

/** openid-client's `customFetch`: checks the destination, then fetches as openid-client asked. */
export function guardedFetch(resolve: Resolve = resolveAll): CustomFetch {
  return async (url, options) => {
    await assertPublicDestination(new URL(url), resolve);
    // Same object openid-client would hand to fetch; its Uint8Array body type is narrower in
    // TypeScript's DOM lib than in undici, hence the cast.
    return fetch(url, options as unknown as RequestInit);
  };
}
