/**
 * Opaque list cursors. A list's own position (a table key, a segment and its inner key, a
 * stored part and an offset) never leaves the service as it is: every `next_cursor` is that
 * position sealed with AES-256-GCM under a key derived from the cursor secret (a secret of
 * its own: `shared/crypto/cursor-keys.ts`), and bound, as additional authenticated data, to the
 * list it came from: the route, the caller's tenant and workspace, the path parameters and
 * every filter of the query (all but `cursor` and `limit`, which may change from page to page).
 *
 * A cursor replayed on another route, by another tenant or workspace, with other filters, or
 * altered in any byte does not open: 400 `validation_failed` on `cursor` (API.md: a bad query
 * parameter). No key, digest or id can be read from one.
 *
 * The endpoint applies this to every route (any `cursor` query parameter, any `next_cursor`
 * answered: `endpoint.ts`), so a list cannot forget it; list modules keep their plain positions.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ValidationError } from '../errors';

/** What a cursor is bound to: it opens only for the same list. */
export interface CursorBinding {
  /** `GET /v1/tokens`: the route as the route table names it. */
  route: string;
  tenantId: string | null;
  workspaceId: string | null;
  params: unknown;
  /** The query without `cursor` and `limit`. */
  filters: Record<string, unknown>;
}

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class InvalidCursorError extends ValidationError {
  constructor() {
    super([{ path: 'cursor', message: 'is not a cursor of this list (cursors are bound to the list, its filters and the caller)' }]);
  }
}

/** JSON with object keys sorted at every level, undefined members left out (undefined array elements are null): one text per binding. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const additionalData = (binding: CursorBinding) => Buffer.from(`tessera-cursor-v${FORMAT_VERSION}\n${canonicalJson(binding)}`, 'utf8');

/** The binding of one request to a list route: query filters are everything but the cursor and the page size. */
export function cursorBinding(route: string, caller: { tenantId: string; workspaceId: string } | undefined, input: { params?: unknown; query?: unknown }): CursorBinding {
  const query = (input.query ?? {}) as Record<string, unknown>;
  const filters = Object.fromEntries(Object.entries(query).filter(([name]) => name !== 'cursor' && name !== 'limit'));
  return { route, tenantId: caller?.tenantId ?? null, workspaceId: caller?.workspaceId ?? null, params: input.params ?? null, filters };
}

/** Seals a list position: version byte, random IV, GCM tag, ciphertext; base64url. */
export function sealCursor(keys: readonly Buffer[], binding: CursorBinding, position: string): string {
  const key = keys[0];
  if (!key) throw new Error('No cursor key');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(binding));
  const sealed = Buffer.concat([cipher.update(position, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([FORMAT_VERSION]), iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The position a cursor sealed for this very binding, or InvalidCursorError. */
export function openCursor(keys: readonly Buffer[], binding: CursorBinding, cursor: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidCursorError();
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== FORMAT_VERSION) throw new InvalidCursorError();
  const iv = raw.subarray(1, 1 + IV_BYTES);
  const tag = raw.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const sealed = raw.subarray(1 + IV_BYTES + TAG_BYTES);
  const aad = additionalData(binding);
  for (const key of keys) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    } catch {
      // Not this key (or not this binding, or altered): try the next key.
    }
  }
  throw new InvalidCursorError();
}
