/**
 * Opaque bearer secrets (PATs, refresh tokens, MFA login transactions, reset tokens):
 * a recognisable prefix, 32 random bytes in base62 and, for PATs, a CRC32 checksum so that
 * secret scanners can tell a real token from a look-alike without calling us.
 * Only the SHA-256 digest of a secret is ever stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function base62(bytes: Uint8Array): string {
  let value = BigInt('0x' + (Buffer.from(bytes).toString('hex') || '0'));
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out || '0';
}

function base62Fixed(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[v % 62]! + out;
    v = Math.floor(v / 62);
  }
  return out;
}

export const tokenPrefixes = {
  pat: 'tsr_pat_',
  refresh: 'tsr_rt_',
  mfa: 'tsr_mfa_',
  reset: 'tsr_reset_',
  ssoCode: 'tsr_code_',
} as const;

export type TokenKind = keyof typeof tokenPrefixes;

/** 43 base62 characters hold 256 bits; shorter encodings are left-padded so lengths are fixed. */
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;

export function generateOpaqueToken(kind: TokenKind): string {
  const body = base62(randomBytes(32)).padStart(BODY_LENGTH, '0');
  if (kind !== 'pat') return tokenPrefixes[kind] + body;
  return tokenPrefixes.pat + body + base62Fixed(crc32(body), CHECKSUM_LENGTH);
}

/** Shape check before any lookup: malformed tokens never cost a database read. */
export function hasTokenShape(kind: TokenKind, token: string): boolean {
  const prefix = tokenPrefixes[kind];
  if (!token.startsWith(prefix)) return false;
  const rest = token.slice(prefix.length);
  if (kind !== 'pat') return rest.length === BODY_LENGTH && /^[0-9A-Za-z]+$/.test(rest);
  if (rest.length !== BODY_LENGTH + CHECKSUM_LENGTH || !/^[0-9A-Za-z]+$/.test(rest)) return false;
  const body = rest.slice(0, BODY_LENGTH);
  return rest.slice(BODY_LENGTH) === base62Fixed(crc32(body), CHECKSUM_LENGTH);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
