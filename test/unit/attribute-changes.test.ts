/**
 * What a run says changed in an entity (shared/runs/attribute-changes.ts): its name and each
 * attribute that differs, before and after as text (strings as they are, anything else as
 * JSON, absent as null), in name order, bounded so a change list's stored parts stay small.
 */
import { describe, expect, it } from 'vitest';
import { attributeChangesOf } from '../../shared/runs/attribute-changes';

describe('attributeChangesOf', () => {
  it('lists the name and each differing attribute in name order, values as text, absent as null', () => {
    const before = { display_name: 'bob', attributes: { status: 'ACTIVE', groups: ['eng'], mfa: true, left: 'x', same: { a: 1 } } };
    const after = { display_name: 'bob.builder', attributes: { status: 'SUSPENDED', groups: ['eng', 'ops'], mfa: false, added: 3, same: { a: 1 } } };
    expect(attributeChangesOf(before, after)).toEqual([
      ['display_name', 'bob', 'bob.builder'],
      ['added', null, '3'],
      ['groups', '["eng"]', '["eng","ops"]'],
      ['left', 'x', null],
      ['mfa', 'true', 'false'],
      ['status', 'ACTIVE', 'SUSPENDED'],
    ]);
  });

  it('says nothing of an entity whose content is the same, and leaves out a name it did not read', () => {
    const content = { display_name: 'eng', attributes: { name: 'eng', description: null } };
    expect(attributeChangesOf(content, { ...content, attributes: { ...content.attributes } })).toEqual([]);
    expect(attributeChangesOf({ attributes: { name: 'eng' } }, { display_name: 'eng', attributes: { name: 'eng' } })).toEqual([]);
  });

  it('cuts each value at 200 characters and keeps at most 20 changes', () => {
    const long = 'a'.repeat(500);
    const [change] = attributeChangesOf({ display_name: 'p', attributes: { document: long } }, { display_name: 'p', attributes: { document: `${long}b` } });
    expect(change![1]).toHaveLength(200);
    expect(change![1]!.endsWith('…')).toBe(true);
    expect(change![2]).toBe(change![1]);
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i]));
    const changes = attributeChangesOf({ display_name: 'p', attributes: {} }, { display_name: 'p', attributes: many });
    expect(changes).toHaveLength(20);
    expect(changes.map(([name]) => name)).toEqual(Object.keys(many).slice(0, 20));
  });
});
