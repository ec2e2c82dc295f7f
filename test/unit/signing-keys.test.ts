/**
 * The JWT signing key derived from its seed: stable, with a public half that carries nothing
 * private. Where the seed comes from (Secrets Manager in the aws stage, through the real client
 * against a local Secrets Manager) is test/peers/aws-stage-clients.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { deriveSigningKey, kidOf, publicJwkOf, publicKeyOf } from '../../shared/crypto/signing-keys';

const CURRENT = 'current-seed-0123456789abcdefghijklmnop';
const PREVIOUS = 'previous-seed-0123456789abcdefghijklmnop';

describe('the signing key', () => {
  it('derives a stable key whose published half is public only and gives back the same key id', async () => {
    const key = deriveSigningKey(CURRENT);
    expect(deriveSigningKey(CURRENT).kid).toBe(key.kid);
    expect(deriveSigningKey(PREVIOUS).kid).not.toBe(key.kid);
    const jwk = await publicJwkOf(key.publicKey);
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x']);
    expect(kidOf(publicKeyOf(jwk))).toBe(key.kid);
    // A stored JWK that carries a private member still yields only a public key.
    const { d } = key.privateKey.export({ format: 'jwk' });
    expect(publicKeyOf({ ...jwk, d } as typeof jwk).type).toBe('public');
  });
});
