/**
 * Stable identifiers and content digests of the inventory.
 *
 * An entity's id is derived from (connection, kind, source_id), so the same provider object
 * keeps its id across runs without a lookup. A run remembers what it saw as short digests of
 * these ids (64 bits of the same hash): enough to tell a deployment's objects apart (the odds
 * of two of a million colliding are about 3 in 10^8) at a fraction of the ids' size.
 */
import { createHash } from 'node:crypto';
import { CROCKFORD_BASE32, base32Encode } from '../base32';

const digestOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest();

/**
 * `ent_` + 26 base32 characters (130 bits of SHA-256 over connection, kind and source id).
 * Uniform, so the first character after `ent_` spreads the inventory over its shards (store/keys).
 */
export function entityIdOf(connectionId: string, kind: string, sourceId: string): string {
  return `ent_${base32Encode(digestOf(connectionId, kind, sourceId), CROCKFORD_BASE32).slice(0, 26)}`;
}

/** The 13-character (65-bit) digest a run records for an entity it saw. */
export const seenKeyOfEntity = (entityId: string): string => entityId.slice(4, 17);

/** The 13-character digest a run records for a relationship it saw. */
export const seenKeyOfRelationship = (kind: string, fromId: string, toId: string): string => base32Encode(digestOf(kind, fromId, toId), CROCKFORD_BASE32).slice(0, 13);

export const SEEN_KEY_LENGTH = 13;

/**
 * Digest of what an entity says: display name and attributes (keys in order). Not which track
 * saw it: an object two tracks list alike (an AWS managed policy in two accounts, one person's
 * email in both) is the same content whichever of them wrote it last.
 */
export function contentDigestOf(entity: { display_name: string; attributes: Record<string, unknown> }): string {
  const attributes = Object.fromEntries(Object.keys(entity.attributes).sort().map((k) => [k, entity.attributes[k]]));
  return digestOf(JSON.stringify([entity.display_name, attributes])).toString('base64url').slice(0, 22);
}
