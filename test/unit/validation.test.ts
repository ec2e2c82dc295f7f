import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ValidationError } from '../../shared/errors';
import { parseWith } from '../../shared/http/validation';
import { problemResponse, toTesseraError } from '../../shared/http/problem';

const Schema = z.strictObject({ name: z.string().max(3), hour: z.number().int().max(23), kind: z.enum(['a', 'b']) });

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

describe('problem+json', () => {
  it('hides the detail of internal errors', () => {
    const response = problemResponse(toTesseraError(new Error('secret connection string')), 'req-1');
    expect(response.statusCode).toBe(500);
    expect(response.headers?.['content-type']).toBe('application/problem+json');
    expect(response.body).not.toContain('secret connection string');
    expect(JSON.parse(response.body!)).toMatchObject({ code: 'internal_error', status: 500, request_id: 'req-1' });
  });
});
