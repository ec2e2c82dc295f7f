/**
 * The private key that token issuers sign with: read from the signing secret (AWSCURRENT; a key
 * file locally), kept for `keyCacheSeconds` (so a rotation reaches warm issuers), and published
 * before its first signature. Only issuing code imports this module: the other functions'
 * bundles do not contain the seed reader, and their roles cannot read the secret.
 */
import { ExpiringValue } from '../crypto/expiring-value';
import { deriveSigningKey, type SigningKey } from '../crypto/signing-keys';
import { readCurrentSigningSeed } from '../crypto/signing-seeds';
import type { Deps, DepsPart } from '../deps';
import { ensureSigningKeyPublished } from './published-signing-keys';

const issuerSigningKey: DepsPart<ExpiringValue<SigningKey>> = {
  name: 'issuer signing key',
  create: (deps) =>
    new ExpiringValue(
      async () => {
        const key = deriveSigningKey(await readCurrentSigningSeed(deps.config));
        await ensureSigningKeyPublished(deps, key);
        return key;
      },
      deps.clock,
      deps.config.keyCacheSeconds * 1000,
    ),
};

/** The key to sign with now. */
export function currentSigningKey(deps: Deps): Promise<SigningKey> {
  return deps.part(issuerSigningKey).get();
}
