/**
 * The digest of an audit event: canonical JSON (sorted keys at every depth, undefined left out,
 * no whitespace) of every field but `digest`, SHA-256 in hex; and how an event links to the one
 * before it.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditEventDigest, canonicalJson, linkAuditEvent } from '../../shared/audit/audit-chain';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('canonical JSON of audit events', () => {
  it('sorts keys at every depth, keeps array order, leaves out undefined and whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: true, y: null }], c: 'é"' }, u: undefined })).toBe('{"a":{"c":"é\\"","d":[3,1,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson([1, undefined, 2])).toBe('[1,2]');
    expect(canonicalJson({ B: 1, a: 2, _: 3 })).toBe('{"B":1,"_":3,"a":2}');
  });

  it('refuses what JSON cannot say exactly', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/not finite/);
    expect(() => canonicalJson({ n: Infinity })).toThrow(/not finite/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
    expect(() => canonicalJson({ n: 10n })).toThrow(/bigint/);
  });

  it('digests every field but the digest itself', () => {
    const event = { event_id: 'evt_1', action: 'login_failed', payload: { reason: 'wrong_password' }, seq: 3, prev_digest: 'ab' };
    const expected = sha256('{"action":"login_failed","event_id":"evt_1","payload":{"reason":"wrong_password"},"prev_digest":"ab","seq":3}');
    expect(auditEventDigest(event)).toBe(expected);
    expect(auditEventDigest({ ...event, digest: 'anything' })).toBe(expected);
    expect(auditEventDigest({ ...event, seq: 4 })).not.toBe(expected);
    expect(auditEventDigest({ ...event, payload: { reason: 'locked' } })).not.toBe(expected);
  });

  it('links an event after the previous one, or first with no previous digest', () => {
    const event = { event_id: 'evt_2', action: 'user_created' };
    const first = linkAuditEvent(event, null);
    expect(first).toEqual({ seq: 1, prev_digest: null, digest: sha256('{"action":"user_created","event_id":"evt_2","prev_digest":null,"seq":1}') });
    const next = linkAuditEvent(event, { seq: 7, digest: 'f00d' });
    expect(next).toEqual({ seq: 8, prev_digest: 'f00d', digest: auditEventDigest({ ...event, seq: 8, prev_digest: 'f00d' }) });
  });
});
