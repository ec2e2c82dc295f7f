import { describe, expect, it } from 'vitest';
import { generateOpaqueToken, hasTokenShape, sha256Hex } from '../../shared/crypto/opaque-tokens';

describe('opaque tokens', () => {
  it('PATs carry the prefix, 256 random bits and a checksum that detects a changed character', () => {
    const token = generateOpaqueToken('pat');
    expect(token).toMatch(/^tsr_pat_[0-9A-Za-z]{49}$/);
    expect(hasTokenShape('pat', token)).toBe(true);
    const last = token.at(-10)!;
    const tampered = token.slice(0, -10) + (last === 'a' ? 'b' : 'a') + token.slice(-9);
    expect(hasTokenShape('pat', tampered)).toBe(false);
  });

  it('tokens are unique and kinds are not interchangeable', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateOpaqueToken('refresh')));
    expect(tokens.size).toBe(200);
    const refresh = generateOpaqueToken('refresh');
    expect(hasTokenShape('refresh', refresh)).toBe(true);
    expect(hasTokenShape('pat', refresh)).toBe(false);
    expect(hasTokenShape('mfa', refresh)).toBe(false);
  });

  it('stores only a SHA-256 digest', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
