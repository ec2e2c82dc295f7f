/**
 * Membership test against the bundled list of common/breached passwords (see
 * `password-list/README.md` for its source and licence), held as a Bloom filter: every listed
 * password is refused, and a password that is not listed is refused by mistake at most
 * `COMMON_PASSWORD_FALSE_POSITIVE_LIMIT` of the time. The filter's bits are decoded on first
 * use, so importing this module costs nothing beyond the string literal.
 */
import { bloomFilterHas, type BloomFilter } from './password-list/bloom-filter';
import { commonPasswordFilter } from './password-list/common-passwords-filter';

/** The promise: at most 1 in 1000 passwords that are not on the list is refused as common. */
export const COMMON_PASSWORD_FALSE_POSITIVE_LIMIT = 1 / 1000;

let filter: BloomFilter | undefined;

export function isCommonPassword(password: string): boolean {
  filter ??= { bits: commonPasswordFilter.bits, hashes: commonPasswordFilter.hashes, data: Buffer.from(commonPasswordFilter.base64, 'base64') };
  return bloomFilterHas(filter, password.toLowerCase());
}
