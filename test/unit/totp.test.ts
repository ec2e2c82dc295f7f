import { randomBytes } from 'node:crypto';
import { generate, generateURI, verify } from 'otplib';
import { describe, expect, it } from 'vitest';
import { generateTotpSecret, totpCode, totpUri, verifyTotp } from '../../shared/crypto/totp';

// RFC 6238 appendix B: the seeds are the ASCII strings below, T0 = 0, X = 30, 8 digits.
const seeds = {
  sha1: new TextEncoder().encode('12345678901234567890'),
  sha256: new TextEncoder().encode('12345678901234567890123456789012'),
  sha512: new TextEncoder().encode('1234567890123456789012345678901234567890123456789012345678901234'),
};
const vectors: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(vectors)('matches appendix B at T=%i', async (epoch, sha1, sha256, sha512) => {
    expect(await generate({ secret: seeds.sha1, epoch, digits: 8, algorithm: 'sha1' })).toBe(sha1);
    expect(await generate({ secret: seeds.sha256, epoch, digits: 8, algorithm: 'sha256' })).toBe(sha256);
    expect(await generate({ secret: seeds.sha512, epoch, digits: 8, algorithm: 'sha512' })).toBe(sha512);
  });

  // Our own functions on the same vectors: the SHA-1 seed in base32 (as enrolled secrets are
  // stored) and 6 digits, which RFC 4226 defines as the low-order digits of the same value.
  const sha1SeedBase32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  it.each(vectors)('Tessera computes and accepts the appendix B SHA-1 code at T=%i (6 digits)', async (epoch, sha1) => {
    expect(await totpCode(sha1SeedBase32, epoch)).toBe(sha1.slice(-6));
    expect(await verifyTotp({ secret: sha1SeedBase32, code: sha1.slice(-6), epochSeconds: epoch })).toBe(Math.floor(epoch / 30));
  });

  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  const now = 1_700_000_000;

  it('accepts the current code and returns its step', async () => {
    const code = await totpCode(secret, now);
    expect(await verifyTotp({ secret, code, epochSeconds: now })).toBe(Math.floor(now / 30));
  });

  it('accepts one step of skew either way and no more', async () => {
    const step = Math.floor(now / 30);
    expect(await verifyTotp({ secret, code: await totpCode(secret, now - 30), epochSeconds: now })).toBe(step - 1);
    expect(await verifyTotp({ secret, code: await totpCode(secret, now + 30), epochSeconds: now })).toBe(step + 1);
    // Two steps away is already too far (a window of ±2 would accept these).
    expect(await verifyTotp({ secret, code: await totpCode(secret, now - 60), epochSeconds: now })).toBeUndefined();
    expect(await verifyTotp({ secret, code: await totpCode(secret, now + 60), epochSeconds: now })).toBeUndefined();
  });

  it('refuses a wrong code', async () => {
    const code = await totpCode(secret, now);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(await verifyTotp({ secret, code: wrong, epochSeconds: now })).toBeUndefined();
  });

  it('refuses a code whose step is not after the last accepted one (replay)', async () => {
    const code = await totpCode(secret, now);
    const step = Math.floor(now / 30);
    expect(await verifyTotp({ secret, code, epochSeconds: now, afterTimeStep: step })).toBeUndefined();
    expect(await verifyTotp({ secret, code, epochSeconds: now, afterTimeStep: step - 1 })).toBe(step);
  });

  it('refuses what is not six digits, without throwing', async () => {
    for (const code of ['', '12345', '1234567', '12a456', ' 123456']) expect(await verifyTotp({ secret, code, epochSeconds: now })).toBeUndefined();
  });

  // otplib (the implementation this module replaced) as an independent reference.
  it('agrees with otplib on secrets, codes, verdicts and URIs', async () => {
    const fresh = generateTotpSecret();
    expect(fresh).toMatch(/^[A-Z2-7]{32}$/);
    for (let i = 0; i < 50; i++) {
      const key = i === 0 ? fresh : generateTotpSecret();
      const epoch = 1_600_000_000 + i * 7_919 + randomBytes(2).readUInt16BE();
      const expected = await generate({ secret: key, epoch, period: 30 });
      expect(await totpCode(key, epoch)).toBe(expected);
      for (const offset of [-60, -30, 0, 30, 60]) {
        const theirs = await verify({ secret: key, token: expected, epoch: epoch + offset, period: 30, epochTolerance: 30 });
        expect(await verifyTotp({ secret: key, code: expected, epochSeconds: epoch + offset }), `offset ${offset}`).toBe(theirs.valid && 'timeStep' in theirs ? theirs.timeStep : undefined);
      }
    }
    for (const account of ['admin@acme.test', 'a.b+c@x.test', 'ü ser@x']) {
      expect(totpUri({ issuer: 'Tessera', account, secret })).toBe(generateURI({ issuer: 'Tessera', label: account, secret, algorithm: 'sha1', digits: 6, period: 30 }));
    }
  });
});
