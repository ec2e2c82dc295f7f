/**
 * The plain words of validation_failed for every kind of zod issue: nested paths, arrays,
 * numbers, formats, unions with and without a discriminator, custom messages, and a prefix.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ValidationError, type FieldError } from '../../shared/errors';
import { parseWith } from '../../shared/schemas/validation';

function errorsOf(schema: z.core.$ZodType, value: unknown, prefix?: string): FieldError[] {
  try {
    parseWith(schema, value, prefix);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors ?? [];
  }
  throw new Error('expected a validation error');
}

describe('validation words', () => {
  it('sizes of arrays and numbers, and missing versus mistyped fields', () => {
    const schema = z.strictObject({ tags: z.array(z.string()).check(
      z.minLength(1),
      z.maxLength(2),
    ), n: z.number().check(z.gte(1)), list: z.array(z.string()), s: z.string().check(z.minLength(2)) });
    expect(errorsOf(schema, { tags: [], n: 0, s: 'a' })).toEqual([
      { path: 'tags', message: 'must have at least 1 items' },
      { path: 'n', message: 'must be >= 1' },
      { path: 'list', message: 'is required' },
      { path: 's', message: 'must be at least 2 characters' },
    ]);
    expect(errorsOf(schema, { tags: ['a', 'b', 'c'], n: 'x', list: {}, s: 'ab' })).toEqual([
      { path: 'tags', message: 'must have at most 2 items' },
      { path: 'n', message: 'must be a number' },
      { path: 'list', message: 'must be an array' },
    ]);
    expect(errorsOf(z.strictObject({ big: z.bigint() }), { big: 1 })).toEqual([{ path: 'big', message: 'must be a bigint' }]);
  });

  it('nested unknown fields carry their path; a prefix goes in front of every path, or is the path', () => {
    expect(errorsOf(z.strictObject({ inner: z.strictObject({ a: z.string() }) }), { inner: { a: 'x', b: 1 } })).toEqual([{ path: 'inner.b', message: 'is not an allowed field' }]);
    expect(errorsOf(z.strictObject({ a: z.string() }), { a: 1 }, 'configuration')).toEqual([{ path: 'configuration.a', message: 'must be a string' }]);
    expect(errorsOf(z.string(), 1, 'Idempotency-Key')).toEqual([{ path: 'Idempotency-Key', message: 'must be a string' }]);
  });

  it('formats in words, never a regex; a schema message wins', () => {
    const schema = z.strictObject({
      email: z.email(), url: z.url(), at: z.iso.datetime(), day: z.iso.date(), id: z.uuid(), b64: z.base64(), b64url: z.base64url(), jwt: z.jwt(),
      pre: z.string().check(z.startsWith('tsr_')), suf: z.string().check(z.endsWith('.test')), re: z.string().check(z.regex(/^a+$/)), own: z.string().check(z.regex(/^b+$/, { message: 'must be only b' })),
    });
    const errors = errorsOf(schema, { email: 'x', url: 'x', at: 'x', day: 'x', id: 'x', b64: '%', b64url: '%', jwt: 'x', pre: 'x', suf: 'x', re: 'x', own: 'x' });
    expect(Object.fromEntries(errors.map((e) => [e.path, e.message]))).toEqual({
      email: 'must be an email address',
      url: 'must be a URL',
      at: 'must be an ISO 8601 date and time in UTC, like 2026-01-31T12:00:00Z',
      day: 'must be a date like 2026-01-31',
      id: 'must be a UUID',
      b64: 'must be base64',
      b64url: 'must be base64url',
      jwt: 'must be a JWT',
      pre: 'must start with tsr_',
      suf: 'must end with .test',
      re: 'is not in the expected format',
      own: 'must be only b',
    });
  });

  it('a discriminated union names its field and values; another union says no shape matched', () => {
    const grant = z.discriminatedUnion('grant_type', [z.object({ grant_type: z.literal('a') }), z.object({ grant_type: z.literal('b') })]);
    expect(errorsOf(grant, { grant_type: 'c' })).toEqual([{ path: 'grant_type', message: 'must be one of: a, b' }]);
    expect(errorsOf(grant, {})).toEqual([{ path: 'grant_type', message: 'is required' }]);
    expect(errorsOf(z.strictObject({ v: z.union([z.string(), z.number()]) }), { v: true })).toEqual([{ path: 'v', message: 'does not match any of the accepted shapes' }]);
  });

  it("zod's own words, where no plain word replaces them, are English (zod/mini loads no locale by itself)", () => {
    expect(errorsOf(z.strictObject({ n: z.number().check(z.multipleOf(5)) }), { n: 7 })).toEqual([{ path: 'n', message: 'Invalid number: must be a multiple of 5' }]);
  });

  it('refinements keep their own message and path', () => {
    const schema = z.strictObject({ a: z.optional(z.string()) }).check(z.refine((v) => v.a !== undefined, { message: 'give at least one field', path: [] }));
    expect(errorsOf(schema, {})).toEqual([{ path: '', message: 'give at least one field' }]);
  });
});
