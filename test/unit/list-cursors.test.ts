/**
 * The cursor seal itself: every part of the binding is authenticated, a rotation keeps
 * cursors issued under the previous cursor secret, and nothing of the position shows.
 * (The HTTP behaviour is in test/api/list-cursors.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { deriveCursorKey } from '../../shared/crypto/cursor-keys';
import { cursorBinding, InvalidCursorError, openCursor, sealCursor, type CursorBinding } from '../../shared/http/cursors';

const current = deriveCursorKey('current seed');
const previous = deriveCursorKey('previous seed');
const caller = { tenantId: 'ten_a', workspaceId: 'ws_a' };
const position = Buffer.from(JSON.stringify({ PK: 'TENANT#ten_a', SK: 'USER#usr_secretish' })).toString('base64url');
const binding = cursorBinding('GET /v1/connections/{id}/runs', caller, { params: { id: 'conn_1' }, query: { limit: 2, cursor: 'x', kind: 'Account' } });

describe('list cursor seal', () => {
  it('opens for the same binding, whatever the page size, and shows nothing of the position', () => {
    const cursor = sealCursor([current], binding, position);
    const samePageLater = cursorBinding('GET /v1/connections/{id}/runs', caller, { params: { id: 'conn_1' }, query: { limit: 50, kind: 'Account' } });
    expect(openCursor([current], samePageLater, cursor)).toBe(position);
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toMatch(/TENANT|USER|usr_|ten_a/);
    expect(cursor).not.toContain(position.slice(0, 12));
  });

  it('is refused when any part of the binding differs', () => {
    const cursor = sealCursor([current], binding, position);
    const others: [string, CursorBinding][] = [
      ['route', { ...binding, route: 'GET /v1/connections/{id}/tests' }],
      ['tenant', { ...binding, tenantId: 'ten_b' }],
      ['workspace', { ...binding, workspaceId: 'ws_b' }],
      ['path parameter', { ...binding, params: { id: 'conn_2' } }],
      ['filter value', { ...binding, filters: { kind: 'Principal' } }],
      ['filter dropped', { ...binding, filters: {} }],
    ];
    for (const [label, other] of others) expect(() => openCursor([current], other, cursor), label).toThrow(InvalidCursorError);
  });

  it('keeps cursors of the previous cursor secret after a rotation, and only with it', () => {
    const cursor = sealCursor([previous], binding, position);
    expect(openCursor([current, previous], binding, cursor)).toBe(position);
    expect(() => openCursor([current], binding, cursor)).toThrow(InvalidCursorError);
  });

  it('refuses garbage and every single-bit change', () => {
    for (const junk of ['', 'not base64!', 'AQ', 'e30']) expect(() => openCursor([current], binding, junk), junk).toThrow(InvalidCursorError);
    const bytes = Buffer.from(sealCursor([current], binding, position), 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered[i] = altered[i]! ^ 0x80;
      expect(() => openCursor([current], binding, altered.toString('base64url')), `byte ${i}`).toThrow(InvalidCursorError);
    }
  });

  it('binds filters by value, not by the order the query named them; repeated filters in their order', () => {
    const route = 'GET /v1/audit-events';
    const sealed = sealCursor([current], cursorBinding(route, caller, { query: { action: ['a', 'b'], since: '2026-01-01', actor: 'usr_1' } }), position);
    const reordered = cursorBinding(route, caller, { query: { actor: 'usr_1', since: '2026-01-01', action: ['a', 'b'] } });
    expect(openCursor([current], reordered, sealed)).toBe(position);
    for (const action of [['b', 'a'], ['a'], 'a', ['a', 'b', 'c']]) {
      const other = cursorBinding(route, caller, { query: { actor: 'usr_1', since: '2026-01-01', action } });
      expect(() => openCursor([current], other, sealed), JSON.stringify(action)).toThrow(InvalidCursorError);
    }
    // A missing element is null in the binding, as JSON has it.
    const withHole = sealCursor([current], cursorBinding(route, caller, { params: { ids: ['x', undefined] } }), position);
    expect(openCursor([current], cursorBinding(route, caller, { params: { ids: ['x', null] } }), withHole)).toBe(position);
  });

  it('cannot seal without a key', () => {
    expect(() => sealCursor([], binding, position)).toThrow('No cursor key');
  });
});
