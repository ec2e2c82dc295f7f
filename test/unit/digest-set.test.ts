/**
 * The sweep's table of seen digests (shared/runs/digest-set.ts) answers exactly as a Set of the
 * same strings would: through growth, for digests that share a hash slot, for ones never added.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CROCKFORD_BASE32, base32Encode } from '../../shared/base32';
import { DigestSet } from '../../shared/runs/digest-set';

const digest = () => base32Encode(randomBytes(10), CROCKFORD_BASE32).slice(0, 13);

describe('DigestSet', () => {
  it('holds what was added, through many growths, and nothing else', () => {
    const added = new Set(Array.from({ length: 20_000 }, digest));
    const others = Array.from({ length: 20_000 }, digest).filter((d) => !added.has(d));
    const set = new DigestSet(13, 4);
    for (const d of added) set.add(d);
    expect(set.size).toBe(added.size);
    expect([...added].filter((d) => !set.has(d))).toEqual([]);
    for (const d of added) set.add(d); // twice: counted once
    expect(set.size).toBe(added.size);
    expect(others.length).toBeGreaterThan(19_000);
    expect(others.filter((d) => set.has(d))).toEqual([]);
  });

  it('tells apart digests that differ in their last character only, in a crowded table', () => {
    const set = new DigestSet(13, 16);
    const alphabet = [...CROCKFORD_BASE32];
    for (const c of alphabet.slice(0, 16)) set.add(`AAAAAAAAAAAA${c}`);
    expect(alphabet.slice(0, 16).filter((c) => !set.has(`AAAAAAAAAAAA${c}`))).toEqual([]);
    expect(alphabet.slice(16).filter((c) => set.has(`AAAAAAAAAAAA${c}`))).toEqual([]);
    expect(set.has('AAAAAAAAAAAA')).toBe(false);
    expect(set.size).toBe(16);
  });

  it('refuses what is not a digest of its width', () => {
    const set = new DigestSet(13);
    expect(() => set.add('short')).toThrow(/not a digest/);
    expect(() => set.add('AAAAAAAAAAA\u0000A')).toThrow(/not a digest/);
    expect(set.size).toBe(0);
  });
});
