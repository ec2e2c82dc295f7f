import { createHash } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordHashParameters, verifyPassword } from '../../shared/crypto/passwords';
import { ValidationError } from '../../shared/errors';
import { assertAcceptablePassword } from '../../shared/identity/password-policy';
import { COMMON_PASSWORD_FALSE_POSITIVE_LIMIT, isCommonPassword } from '../../shared/identity/common-passwords';
import { bloomFalsePositiveRate, buildBloomFilter } from '../../shared/identity/password-list/bloom-filter';
import { commonPasswordFilter } from '../../shared/identity/password-list/common-passwords-filter';
import { commonPasswordList } from '../../shared/identity/password-list/list';

describe('Argon2id password hashing', () => {
  it('hashes with the OWASP parameters and verifies', async () => {
    const stored = await hashPassword('a long enough password');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'a long enough password')).toEqual({ valid: true, needsRehash: false });
    expect(await verifyPassword(stored, 'another password!!')).toEqual({ valid: false, needsRehash: false });
    expect(await verifyPassword('not a hash', 'x')).toEqual({ valid: false, needsRehash: false });
  });

  it('asks to rehash a hash made with older parameters', async () => {
    const old = await hash('a long enough password', { ...passwordHashParameters, memoryCost: 4096, timeCost: 1 });
    expect(await verifyPassword(old, 'a long enough password')).toEqual({ valid: true, needsRehash: true });
  });
});

describe('password policy', () => {
  it('takes 12 to 128 characters and refuses common passwords', () => {
    expect(() => assertAcceptablePassword('x'.repeat(11))).toThrow(ValidationError);
    expect(() => assertAcceptablePassword('x'.repeat(129))).toThrow(ValidationError);
    expect(() => assertAcceptablePassword('Password1234')).toThrow(/too common/);
    expect(() => assertAcceptablePassword('1qaz2wsx3EDC')).toThrow(/too common/); // case does not help
    expect(() => assertAcceptablePassword('a quiet evening by the sea')).not.toThrow();
  });

  it('ships a real list: at least 10,000 entries, each one the length rule alone would let through', () => {
    const entries = commonPasswordList.split('\n');
    expect(entries.length).toBeGreaterThanOrEqual(10_000);
    expect(new Set(entries).size).toBe(entries.length);
    // One assertion over the list, not 88,000: the loop alone outlasted the test timeout on a busy machine.
    expect(entries.filter((entry) => [...entry].length < 12 || entry !== entry.toLowerCase())).toEqual([]);
  });

  it('refuses every password of the list, in any case', () => {
    const missed = commonPasswordList.split('\n').filter((entry) => !isCommonPassword(entry) || !isCommonPassword(entry.toUpperCase()));
    expect(missed).toEqual([]);
  });

  it('refuses a password that is not on the list less often than the documented rate', () => {
    const listed = new Set(commonPasswordList.split('\n'));
    // Deterministic strings (digests of a counter), so a run cannot pass or fail by luck.
    const samples = Array.from({ length: 5000 }, (_, i) => createHash('sha256').update(`not a listed password ${i}`).digest('base64url').slice(0, 16).toLowerCase()).filter((s) => !listed.has(s));
    expect(samples.length).toBeGreaterThan(4900);
    const refused = samples.filter(isCommonPassword).length;
    expect(refused / samples.length).toBeLessThan(COMMON_PASSWORD_FALSE_POSITIVE_LIMIT);
    expect(bloomFalsePositiveRate(commonPasswordFilter.entries, commonPasswordFilter.bits, commonPasswordFilter.hashes)).toBeLessThan(COMMON_PASSWORD_FALSE_POSITIVE_LIMIT);
  });

  it('ships the filter generated from the list (regenerate with generate-filter.ts after a change)', () => {
    const entries = commonPasswordList.split('\n');
    expect(commonPasswordFilter.entries).toBe(entries.length);
    const rebuilt = buildBloomFilter(entries, commonPasswordFilter);
    expect(Buffer.from(rebuilt.data).toString('base64') === commonPasswordFilter.base64).toBe(true);
  });
});
