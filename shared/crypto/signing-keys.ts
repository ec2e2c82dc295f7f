/**
 * JWT signing keys. The key material is a random seed from which an Ed25519 key pair is
 * derived; the key id is a digest of the public key. Where the seed is kept, and who may read
 * it, is `signing-seeds.ts` (issuers only); verifiers know only the public halves that the
 * issuers published (`shared/identity/published-signing-keys.ts`).
 */
import { createHash, createPrivateKey, createPublicKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { exportJWK } from 'jose';

export const JWT_ALGORITHM = 'EdDSA';

/** The leeway verification grants an expired token (seconds). */
export const JWT_CLOCK_TOLERANCE_SECONDS = 5;

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** The public half as published: an OKP JWK without `d`. */
export interface PublicSigningJwk {
  kty: string;
  crv: string;
  x: string;
}

// PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function deriveSigningKey(seed: string): SigningKey {
  const raw = Buffer.from(hkdfSync('sha256', Buffer.from(seed, 'utf8'), Buffer.alloc(0), 'tessera-jwt-ed25519', 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  return { kid: kidOf(publicKey), privateKey, publicKey };
}

export function kidOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest('base64url').slice(0, 16);
}

export function newSigningSeed(): string {
  return randomBytes(32).toString('base64url');
}

export async function publicJwkOf(publicKey: KeyObject): Promise<PublicSigningJwk> {
  const { kty, crv, x } = await exportJWK(publicKey);
  if (kty !== 'OKP' || crv !== 'Ed25519' || !x) throw new Error('Not an Ed25519 public key');
  return { kty, crv, x };
}

export function publicKeyOf(jwk: PublicSigningJwk): KeyObject {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') throw new Error('Not an Ed25519 public key');
  // Only the public members are read: a stored JWK with a `d` would still give a public key.
  return createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
}
