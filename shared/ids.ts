/**
 * Identifiers: a type prefix plus a time-ordered, random suffix (ULID alphabet), so that
 * sorting ids sorts by creation time and lists can run newest first on the sort key alone.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

export type IdPrefix = 'ten' | 'usr' | 'ws' | 'tok' | 'evt' | 'fam' | 'conn' | 'test' | 'run' | 'mfa' | 'req' | 'msg' | 'rst' | 'ext' | 'exp';

function encodeTime(ms: number): string {
  let out = '';
  let value = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[value % 32]! + out;
    value = Math.floor(value / 32);
  }
  return out;
}

function encodeRandom(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31]!;
  return out;
}

export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

export function createIdGenerator(now: () => number = Date.now): IdGenerator {
  return { next: (prefix) => `${prefix}_${encodeTime(now())}${encodeRandom(16)}` };
}
