/**
 * TXT lookups for email-domain verification, with `node:dns`'s Resolver (c-ares, UDP/TCP to
 * the configured server or the system's resolvers). The answer distinguishes what the zone
 * says (records, or no record: the name or its TXT set does not exist) from an outage (timeout,
 * SERVFAIL, refused, unreachable server): only the former may change a domain's status.
 */
import { Resolver } from 'node:dns/promises';
import type { EmailDomainConfig } from '../config';

export type TxtLookup =
  | { kind: 'records'; values: string[] }
  | { kind: 'no_record'; detail: string }
  | { kind: 'unavailable'; detail: string };

/** c-ares codes that mean the zone answered "nothing here". */
const NO_RECORD: Record<string, string> = {
  ENOTFOUND: 'the name does not exist (NXDOMAIN)',
  ENODATA: 'the name has no TXT record',
};

export async function lookupTxt(config: EmailDomainConfig, name: string): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: Math.ceil(config.dnsTimeoutMs / 2), tries: 2 });
  if (config.dnsResolver) resolver.setServers([config.dnsResolver]);
  try {
    // A TXT record is a list of character-strings that together make one value (RFC 7208 §3.3).
    const records = await resolver.resolveTxt(name);
    return { kind: 'records', values: records.map((chunks) => chunks.join('')) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (NO_RECORD[code]) return { kind: 'no_record', detail: NO_RECORD[code] };
    return { kind: 'unavailable', detail: `the DNS lookup of ${name} failed (${code})` };
  } finally {
    resolver.cancel();
  }
}
