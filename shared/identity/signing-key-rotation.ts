/**
 * The operator's rotation of the JWT signing key (`npm run tessera -- rotate-signing-key`), in
 * an order that never lets anything sign with a key verifiers cannot find:
 * 1. a new seed; its public half is published as `next` (it verifies from now on);
 * 2. the seed becomes the signing secret's current value (AWS: PutSecretValue, which moves
 *    AWSCURRENT; locally the key file): issuers pick it up at their next read, cold ones at once;
 * 3. it becomes `current` in the published set, and the key before it `retiring` until
 *    `retiringUntil` (warm issuers may sign with the old key for one more key cache period).
 * Verifiers that still hold the old set read it again on the first token with the new kid.
 */
import { deriveSigningKey, newSigningSeed } from '../crypto/signing-keys';
import { readCurrentSigningSeed, writeCurrentSigningSeed } from '../crypto/signing-seeds';
import type { Deps } from '../deps';
import { ensureSigningKeyPublished, promoteSigningKey, publishNextSigningKey } from './published-signing-keys';

export interface SigningKeyRotation {
  previousKid: string;
  newKid: string;
  /** The kids that now retire (the previous key, and any other that was still current or next). */
  retired: string[];
  retiringUntil: Date;
}

export async function rotateSigningKey(deps: Pick<Deps, 'table' | 'clock' | 'config'>): Promise<SigningKeyRotation> {
  // The key in use is published first, so that even a deployment whose issuers never ran yet
  // ends with the old key retiring rather than unknown.
  const previous = deriveSigningKey(await readCurrentSigningSeed(deps.config));
  await ensureSigningKeyPublished(deps, previous);

  const seed = newSigningSeed();
  const next = deriveSigningKey(seed);
  await publishNextSigningKey(deps, next);
  await writeCurrentSigningSeed(deps.config, seed);
  const { retired, retiringUntil } = await promoteSigningKey(deps, next.kid);
  return { previousKid: previous.kid, newKid: next.kid, retired, retiringUntil };
}
