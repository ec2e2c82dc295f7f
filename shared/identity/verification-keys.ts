/**
 * What verifiers know of the signing keys: the published key set (public halves only), read
 * from the table and kept for `keyCacheSeconds`. A token whose `kid` is not in what is held
 * reads the set again at once (a key published since, as after a rotation), but at most once
 * per `EARLY_REFRESH_INTERVAL_SECONDS`, so made-up kids cannot make every request read the table.
 * Whether a retiring key still verifies is decided at each use, not when the set was read.
 */
import type { KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { EARLY_REFRESH_INTERVAL_SECONDS, ExpiringValue } from '../crypto/expiring-value';
import { publicKeyOf } from '../crypto/signing-keys';
import type { Deps } from '../deps';
import type { PublishedSigningKeyRecord } from '../store/records';
import { isAcceptedAt, jwkOf, readPublishedSigningKeys } from './published-signing-keys';

interface HeldKey {
  record: PublishedSigningKeyRecord;
  publicKey: KeyObject;
}

export interface VerificationKeys {
  /** The public key of `kid` when it is published and verifies now. */
  keyFor(kid: string): Promise<KeyObject | undefined>;
  /** The JWKS of every key that verifies now (next, current, retiring before its expiry). */
  jwks(): Promise<{ keys: JWK[] }>;
}

export function createVerificationKeys(deps: Pick<Deps, 'table' | 'clock' | 'config'>): VerificationKeys {
  const set = new ExpiringValue<Map<string, HeldKey>>(
    async () => new Map((await readPublishedSigningKeys(deps)).map((record) => [record.kid, { record, publicKey: publicKeyOf(record.public_jwk) }])),
    deps.clock,
    deps.config.keyCacheSeconds * 1000,
    EARLY_REFRESH_INTERVAL_SECONDS * 1000,
  );
  const accepted = (held: HeldKey | undefined) => (held && isAcceptedAt(held.record, deps.clock.now()) ? held.publicKey : undefined);
  return {
    async keyFor(kid) {
      const held = (await set.get()).get(kid);
      if (held) return accepted(held);
      return accepted((await set.refresh()).get(kid));
    },
    async jwks() {
      const now = deps.clock.now();
      return { keys: [...(await set.get()).values()].filter((k) => isAcceptedAt(k.record, now)).map((k) => jwkOf(k.record)) };
    },
  };
}
