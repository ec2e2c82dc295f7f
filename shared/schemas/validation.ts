/** zod issues → the `errors` array of a validation_failed problem, in plain words. */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ValidationError, type FieldError } from '../errors';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

const TYPE_WORDS: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/** What zod says unasked begins with "Invalid"; a schema's own message (`{ message }`) says what is wanted. */
const isOwnMessage = (message: string) => !/^invalid\b/i.test(message);

/** Plain words for the formats zod knows; never the name of a regex or a format keyword. */
const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an email address',
  url: 'must be a URL',
  datetime: 'must be an ISO 8601 date and time in UTC, like 2026-01-31T12:00:00Z',
  date: 'must be a date like 2026-01-31',
  uuid: 'must be a UUID',
  base64: 'must be base64',
  base64url: 'must be base64url',
  jwt: 'must be a JWT',
};

function formatMessage(issue: z.core.$ZodIssueInvalidStringFormat): string {
  if (isOwnMessage(issue.message)) return issue.message;
  if (issue.format === 'starts_with' && 'prefix' in issue) return `must start with ${String(issue.prefix)}`;
  if (issue.format === 'ends_with' && 'suffix' in issue) return `must end with ${String(issue.suffix)}`;
  return FORMAT_WORDS[issue.format] ?? 'is not in the expected format';
}

function describe(issue: z.core.$ZodIssue, root: unknown): FieldError[] {
  const path = issue.path.map(String).join('.');
  const at = (p: string) => (path ? `${path}.${p}` : p);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path: at(key), message: 'is not an allowed field' }));
    case 'invalid_type':
      return [{ path, message: valueAt(root, issue.path) === undefined ? 'is required' : `must be ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`}` }];
    case 'invalid_union':
      // A discriminated union (e.g. grant_type) names the field and its allowed values.
      if ('options' in issue && issue.options?.length) {
        return [{ path, message: valueAt(root, issue.path) === undefined ? 'is required' : `must be one of: ${issue.options.map(String).join(', ')}` }];
      }
      return [{ path, message: 'does not match any of the accepted shapes' }];
    case 'too_big':
      return [{ path, message: issue.origin === 'string' ? `must be at most ${String(issue.maximum)} characters` : issue.origin === 'array' ? `must have at most ${String(issue.maximum)} items` : `must be <= ${String(issue.maximum)}` }];
    case 'too_small':
      return [{ path, message: issue.origin === 'string' ? `must be at least ${String(issue.minimum)} characters` : issue.origin === 'array' ? `must have at least ${String(issue.minimum)} items` : `must be >= ${String(issue.minimum)}` }];
    case 'invalid_value':
      return [{ path, message: `must be one of: ${issue.values.map(String).join(', ')}` }];
    case 'invalid_format':
      return [{ path, message: formatMessage(issue) }];
    default:
      return [{ path, message: issue.message }];
  }
}

/** zod/mini loads no locale; the words of zod's own that pass through here stay the English ones (not "Invalid input"). */
const english = { error: en().localeError };

export function parseWith<S extends z.core.$ZodType>(schema: S, value: unknown, prefix?: string): z.infer<S> {
  const result = z.safeParse(schema, value, english);
  if (result.success) return result.data;
  const errors = result.error.issues.flatMap((issue) => describe(issue, value)).map((e) => ({ ...e, path: prefix ? (e.path ? `${prefix}.${e.path}` : prefix) : e.path }));
  throw new ValidationError(errors);
}
