/**
 * A Bloom filter over UTF-8 strings: the compact form of the common-password list. Membership
 * can be wrong in one direction only: a string that was added is always found; one that was not
 * is found with the false-positive probability the filter was sized for. For a password list
 * that is the acceptable side (a rare good password is refused, no listed one gets through).
 *
 * Positions come from one SHA-256 of the string, split into two 32-bit halves for double
 * hashing (Kirsch–Mitzenmacher): k positions for the cost of one digest.
 */
import { createHash } from 'node:crypto';

export interface BloomFilter {
  /** Number of bits (m). */
  bits: number;
  /** Positions per string (k). */
  hashes: number;
  /** The bit array, little-endian within each byte; `ceil(bits / 8)` bytes. */
  data: Uint8Array;
}

function positions(value: string, bits: number, hashes: number): number[] {
  const digest = createHash('sha256').update(value, 'utf8').digest();
  const h1 = digest.readUInt32LE(0);
  // Odd, so the k positions never collapse onto one when bits is even.
  const h2 = digest.readUInt32LE(4) | 1;
  const out: number[] = [];
  // h1 + i·h2 < 2^32·(k+1): exact in a double for any k we use.
  for (let i = 0; i < hashes; i++) out.push((h1 + i * (h2 >>> 0)) % bits);
  return out;
}

export function bloomFilterHas(filter: BloomFilter, value: string): boolean {
  return positions(value, filter.bits, filter.hashes).every((p) => (filter.data[p >>> 3]! & (1 << (p & 7))) !== 0);
}

/** Optimal size for `count` strings at `falsePositiveRate`: m = −n·ln p / ln²2, k = (m/n)·ln 2. */
export function bloomFilterSize(count: number, falsePositiveRate: number): { bits: number; hashes: number } {
  const bits = Math.ceil((-count * Math.log(falsePositiveRate)) / Math.LN2 ** 2);
  return { bits, hashes: Math.max(1, Math.round((bits / count) * Math.LN2)) };
}

/** The false-positive probability of a filter of `bits` and `hashes` holding `count` strings. */
export function bloomFalsePositiveRate(count: number, bits: number, hashes: number): number {
  return (1 - Math.exp((-hashes * count) / bits)) ** hashes;
}

export function buildBloomFilter(values: readonly string[], { bits, hashes }: { bits: number; hashes: number }): BloomFilter {
  const data = new Uint8Array(Math.ceil(bits / 8));
  for (const value of values) for (const p of positions(value, bits, hashes)) data[p >>> 3]! |= 1 << (p & 7);
  return { bits, hashes, data };
}
