/**
 * The published key set: the public halves of the JWT signing keys, kept in the table so that
 * every function verifies with public keys only and no secret is needed to serve the JWKS.
 * One item per key: `next` (published before anything signs with it), `current`, `retiring`
 * (still verifies until its `expires_at`: long enough for the tokens it signed and for warm
 * issuers that still hold it). Issuers publish their key before their first signature
 * (`ensureSigningKeyPublished`); the operator's rotation moves keys through the states
 * (`signing-key-rotation.ts`).
 */
import type { JWK } from 'jose';
import type { Config } from '../config';
import { JWT_ALGORITHM, JWT_CLOCK_TOLERANCE_SECONDS, publicJwkOf, type SigningKey } from '../crypto/signing-keys';
import type { Deps } from '../deps';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { PublishedSigningKeyRecord } from '../store/records';
import { tableDefinition } from '../store/table';

type KeySetDeps = Pick<Deps, 'table' | 'clock' | 'config'>;

export async function readPublishedSigningKeys(deps: Pick<Deps, 'table'>): Promise<PublishedSigningKeyRecord[]> {
  const records: PublishedSigningKeyRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.table.queryPrefix<PublishedSigningKeyRecord>(keys.signingKeys(), { limit: 100, cursor }, { newestFirst: false });
    records.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return records;
}

/** Whether tokens signed by this key verify at `now`. */
export function isAcceptedAt(record: PublishedSigningKeyRecord, now: Date): boolean {
  if (record.status !== 'retiring') return true;
  return record.expires_at !== null && Date.parse(record.expires_at) > now.getTime();
}

/** The JWKS entry of a published key. */
export function jwkOf(record: PublishedSigningKeyRecord): JWK {
  return { ...record.public_jwk, kid: record.kid, alg: JWT_ALGORITHM, use: 'sig' };
}

/**
 * When a key that stops being current stops verifying: a warm issuer may go on signing with it
 * for one key cache period, and what it signs lives one access token lifetime (plus the leeway
 * of verification).
 */
export function retiringUntil(config: Pick<Config, 'keyCacheSeconds' | 'jwt'>, now: Date): Date {
  return new Date(now.getTime() + (config.keyCacheSeconds + config.jwt.accessTokenTtlSeconds + JWT_CLOCK_TOLERANCE_SECONDS) * 1000);
}

async function recordOf(key: SigningKey, status: PublishedSigningKeyRecord['status'], now: Date): Promise<PublishedSigningKeyRecord> {
  return { kid: key.kid, public_jwk: await publicJwkOf(key.publicKey), status, published_at: now.toISOString(), expires_at: null };
}

/** Publishes a key that nothing signs with yet. Idempotent for the same key; never demotes one already published. */
export async function publishNextSigningKey(deps: KeySetDeps, key: SigningKey): Promise<void> {
  await deps.table
    .put({ Item: { ...keys.signingKey(key.kid), ...(await recordOf(key, 'next', deps.clock.now())) }, ConditionExpression: 'attribute_not_exists(PK)' })
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/**
 * Makes `kid` the current key and every other current (or next) key retiring, with the expiry
 * of `retiringUntil`. Returns the kids it retired.
 */
export async function promoteSigningKey(deps: KeySetDeps, kid: string): Promise<{ retired: string[]; retiringUntil: Date }> {
  const now = deps.clock.now();
  const until = retiringUntil(deps.config, now);
  await deps.table.update({
    Key: keys.signingKey(kid),
    UpdateExpression: 'SET #status = :current, expires_at = :null REMOVE #ttl',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#status': 'status', '#ttl': tableDefinition.ttlAttribute },
    ExpressionAttributeValues: { ':current': 'current', ':null': null },
  });
  const others = (await readPublishedSigningKeys(deps)).filter((r) => r.kid !== kid && r.status !== 'retiring');
  for (const other of others) {
    await deps.table
      .update({
        Key: keys.signingKey(other.kid),
        UpdateExpression: 'SET #status = :retiring, expires_at = :until, #ttl = :ttl',
        // A parallel promotion may have retired it already, with its own expiry: keep that one.
        ConditionExpression: '#status <> :retiring',
        ExpressionAttributeNames: { '#status': 'status', '#ttl': tableDefinition.ttlAttribute },
        ExpressionAttributeValues: { ':retiring': 'retiring', ':until': until.toISOString(), ':ttl': Math.ceil(until.getTime() / 1000) },
      })
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
  return { retired: others.map((r) => r.kid), retiringUntil: until };
}

/**
 * An issuer's check before its first signature with `key`: its public half must be published.
 * Normally the rotation published it (as `next`); on the very first start, or after the seed was
 * replaced by hand, the issuer publishes it itself as current and retires the keys before it,
 * as a rotation would. A key that is published but no longer verifies is never used.
 */
export async function ensureSigningKeyPublished(deps: KeySetDeps, key: SigningKey): Promise<void> {
  const now = deps.clock.now();
  try {
    await deps.table.put({ Item: { ...keys.signingKey(key.kid), ...(await recordOf(key, 'current', now)) }, ConditionExpression: 'attribute_not_exists(PK)' });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const published = await deps.table.get<PublishedSigningKeyRecord>(keys.signingKey(key.kid));
    if (published && isAcceptedAt(published, now)) return;
    throw new Error(`The signing key ${key.kid} is retired; the signing secret must hold a new seed (rotate-signing-key)`);
  }
  await promoteSigningKey(deps, key.kid);
}
