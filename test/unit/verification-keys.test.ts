/**
 * The verifiers' view of the published key set: kept for the key cache period, read again at
 * once for a kid it does not know (a key published since), but not for every unknown kid; a
 * retiring key verifies until its expiry, judged at each use. The table is a stub that counts
 * reads; the clock is frozen and moved by hand.
 */
import { describe, expect, it } from 'vitest';
import { deriveSigningKey, publicJwkOf, type SigningKey } from '../../shared/crypto/signing-keys';
import { EARLY_REFRESH_INTERVAL_SECONDS } from '../../shared/crypto/expiring-value';
import type { Deps } from '../../shared/deps';
import { createVerificationKeys } from '../../shared/identity/verification-keys';
import type { PublishedSigningKeyRecord } from '../../shared/store/records';

const CACHE_SECONDS = 300;

function setup() {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const published: PublishedSigningKeyRecord[] = [];
  let reads = 0;
  const table = {
    queryPrefix: () => {
      reads++;
      return Promise.resolve({ items: published.map((r) => ({ ...r })), nextCursor: null });
    },
  };
  const clock = { now: () => new Date(now) };
  const config = { keyCacheSeconds: CACHE_SECONDS } as Deps['config'];
  const keys = createVerificationKeys({ table: table as unknown as Deps['table'], clock, config });
  return {
    keys,
    reads: () => reads,
    advance: (seconds: number) => (now += seconds * 1000),
    async publish(key: SigningKey, status: PublishedSigningKeyRecord['status'], expiresInSeconds?: number) {
      published.push({
        kid: key.kid,
        public_jwk: await publicJwkOf(key.publicKey),
        status,
        published_at: new Date(now).toISOString(),
        expires_at: expiresInSeconds === undefined ? null : new Date(now + expiresInSeconds * 1000).toISOString(),
      });
    },
  };
}

const current = deriveSigningKey('current');
const next = deriveSigningKey('next');

describe('verification keys', () => {
  it('reads the published set once per cache period', async () => {
    const s = setup();
    await s.publish(current, 'current');
    for (let i = 0; i < 5; i++) expect((await s.keys.keyFor(current.kid))?.equals(current.publicKey)).toBe(true);
    expect(s.reads()).toBe(1);
    s.advance(CACHE_SECONDS);
    await s.keys.keyFor(current.kid);
    expect(s.reads()).toBe(2);
  });

  it('a kid published after the set was read is found by one read at once', async () => {
    const s = setup();
    await s.publish(current, 'current');
    await s.keys.keyFor(current.kid);
    await s.publish(next, 'next');
    const [a, b, c] = await Promise.all([s.keys.keyFor(next.kid), s.keys.keyFor(next.kid), s.keys.keyFor(next.kid)]);
    for (const key of [a, b, c]) expect(key?.equals(next.publicKey)).toBe(true);
    expect(s.reads()).toBe(2);
  });

  it('a flood of unknown kids reads the table once per interval, not once per token, and finds nothing', async () => {
    const s = setup();
    await s.publish(current, 'current');
    await s.keys.keyFor(current.kid);
    for (let i = 0; i < 50; i++) expect(await s.keys.keyFor(`made-up-${i}`)).toBeUndefined();
    expect(s.reads()).toBe(2);
    s.advance(EARLY_REFRESH_INTERVAL_SECONDS - 1);
    expect(await s.keys.keyFor('made-up-again')).toBeUndefined();
    expect(s.reads()).toBe(2);
    s.advance(1);
    expect(await s.keys.keyFor('made-up-later')).toBeUndefined();
    expect(s.reads()).toBe(3);
  });

  it('a retiring key verifies until its expiry, even when the set was read before', async () => {
    const s = setup();
    await s.publish(current, 'retiring', 60);
    await s.publish(next, 'current');
    expect(await s.keys.keyFor(current.kid)).toBeDefined();
    expect((await s.keys.jwks()).keys.map((k) => k.kid).sort()).toEqual([current.kid, next.kid].sort());
    s.advance(60);
    expect(await s.keys.keyFor(current.kid)).toBeUndefined();
    expect((await s.keys.jwks()).keys.map((k) => k.kid)).toEqual([next.kid]);
    expect(s.reads()).toBe(1);
  });

  it('serves a JWKS of public keys only, with the members verifiers need', async () => {
    const s = setup();
    await s.publish(current, 'current');
    await s.publish(next, 'next');
    const { keys } = await s.keys.jwks();
    expect(keys).toHaveLength(2);
    for (const jwk of keys) {
      expect(Object.keys(jwk).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    }
  });
});
