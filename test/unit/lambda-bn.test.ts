/**
 * infra/lambda-bn.ts against what bn.js 4 answers for the same calls (the expected values are
 * bn.js's, taken from it): the 64-bit frame length of the Encryption SDK, written and read back.
 */
import { describe, expect, it } from 'vitest';
import BN from '../../infra/lambda-bn';

describe('the BigInt stand-in for bn.js', () => {
  it('writes a length as 8 big-endian bytes', () => {
    expect(new BN(0).toArray('be', 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(new BN(300).toArray('be', 8)).toEqual([0, 0, 0, 0, 0, 0, 1, 44]);
    expect(new BN(2 ** 32 + 1).toArray('be', 8)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    expect(new BN(Number.MAX_SAFE_INTEGER).toArray('be', 8)).toEqual([0, 31, 255, 255, 255, 255, 255, 255]);
    expect(new BN(258).toArray('le', 4)).toEqual([2, 1, 0, 0]);
    expect(new BN(0).toArray()).toEqual([0]);
  });

  it('reads bytes back as a number', () => {
    expect(new BN([0, 0, 0, 0, 0, 0, 1, 44], 16, 'be').toNumber()).toBe(300);
    expect(new BN([0, 31, 255, 255, 255, 255, 255, 255], 16, 'be').toNumber()).toBe(Number.MAX_SAFE_INTEGER);
    expect(new BN([1, 0], 16, 'le').toNumber()).toBe(1);
    expect(new BN(new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1])).toNumber()).toBe(2 ** 32 + 1);
  });

  it('keeps bn.js refusals: more than 53 bits, a longer array than asked, an unsafe number', () => {
    expect(() => new BN([0, 32, 0, 0, 0, 0, 0, 0], 16, 'be').toNumber()).toThrow('Number can only safely store up to 53 bits');
    expect(() => new BN(2 ** 40).toArray('be', 4)).toThrow('byte array longer than desired length');
    expect(() => new BN(2 ** 60)).toThrow('Assertion failed');
  });
});
