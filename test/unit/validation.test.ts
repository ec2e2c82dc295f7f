import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ValidationError } from '../../shared/errors';
import { idOf } from '../../shared/schemas/field-schemas';
import { parseWith } from '../../shared/schemas/validation';
import { problemResponse, toTesseraError } from '../../shared/http/problem';

const Schema = z.strictObject({ name: z.string().check(z.maxLength(3)), hour: z.number().check(z.int(), z.lte(23)), kind: z.enum(['a', 'b']) });

function errorsOf(value: unknown) {
  try {
    parseWith(Schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
  throw new Error('expected a validation error');
}

describe('validation messages', () => {
  it('names the field and the rule', () => {
    expect(errorsOf({ name: 'abcd', hour: 24, kind: 'c', extra: 1 })).toEqual(
      expect.arrayContaining([
        { path: 'extra', message: 'is not an allowed field' },
        { path: 'name', message: 'must be at most 3 characters' },
        { path: 'hour', message: 'must be <= 23' },
        { path: 'kind', message: 'must be one of: a, b' },
      ]),
    );
  });

  it('says what is missing or of the wrong type', () => {
    expect(errorsOf({ name: 1, kind: 'a' })).toEqual(
      expect.arrayContaining([{ path: 'name', message: 'must be a string' }, { path: 'hour', message: 'is required' }]),
    );
  });
});

describe('messages a user understands', () => {
  const errors = (schema: z.core.$ZodType, value: unknown) => {
    try {
      parseWith(schema, value);
    } catch (error) {
      return (error as ValidationError).errors;
    }
    throw new Error('expected a validation error');
  };

  it('says what an id looks like, never the name of a format keyword', () => {
    const [error] = errors(z.strictObject({ id: idOf('conn') }), { id: 'x' })!;
    expect(error).toEqual({ path: 'id', message: 'must be an id that starts with conn_ followed by 10 to 40 lowercase letters or digits' });
    expect(error!.message).not.toMatch(/regex|pattern|invalid/i);
  });

  it('names the allowed values of a discriminator, and plain words for types and formats', () => {
    const Grant = z.discriminatedUnion('grant_type', [z.strictObject({ grant_type: z.literal('a') }), z.strictObject({ grant_type: z.literal('b') })]);
    expect(errors(Grant, { grant_type: 'c' })).toEqual([{ path: 'grant_type', message: 'must be one of: a, b' }]);
    expect(errors(Grant, {})).toEqual([{ path: 'grant_type', message: 'is required' }]);
    expect(errors(z.strictObject({ n: z.int(), o: z.record(z.string(), z.unknown()), e: z.email(), u: z.url(), t: z.iso.datetime() }), { n: 1.5, o: [], e: 'x', u: 'y', t: 'z' })).toEqual([
      { path: 'n', message: 'must be a whole number' },
      { path: 'o', message: 'must be an object' },
      { path: 'e', message: 'must be an email address' },
      { path: 'u', message: 'must be a URL' },
      { path: 't', message: 'must be an ISO 8601 date and time in UTC, like 2026-01-31T12:00:00Z' },
    ]);
  });
});

describe('problem+json', () => {
  it('hides the detail of internal errors', () => {
    const response = problemResponse(toTesseraError(new Error('secret connection string')), 'req-1');
    expect(response.statusCode).toBe(500);
    expect(response.headers?.['content-type']).toBe('application/problem+json');
    expect(response.body).not.toContain('secret connection string');
    expect(JSON.parse(response.body!)).toMatchObject({ code: 'internal_error', status: 500, request_id: 'req-1' });
  });
});
