/** zod issues → the `errors` array of a validation_failed problem, in plain words. */
import type { z } from 'zod';
import { ValidationError, type FieldError } from '../errors';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function describe(issue: z.core.$ZodIssue, root: unknown): FieldError[] {
  const path = issue.path.map(String).join('.');
  const at = (p: string) => (path ? `${path}.${p}` : p);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path: at(key), message: 'is not an allowed field' }));
    case 'invalid_type':
      return [{ path, message: valueAt(root, issue.path) === undefined ? 'is required' : `must be ${issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}` }];
    case 'too_big':
      return [{ path, message: issue.origin === 'string' ? `must be at most ${String(issue.maximum)} characters` : issue.origin === 'array' ? `must have at most ${String(issue.maximum)} items` : `must be <= ${String(issue.maximum)}` }];
    case 'too_small':
      return [{ path, message: issue.origin === 'string' ? `must be at least ${String(issue.minimum)} characters` : issue.origin === 'array' ? `must have at least ${String(issue.minimum)} items` : `must be >= ${String(issue.minimum)}` }];
    case 'invalid_value':
      return [{ path, message: `must be one of: ${issue.values.map(String).join(', ')}` }];
    case 'invalid_format':
      return [{ path, message: `must be a valid ${issue.format}` }];
    default:
      return [{ path, message: issue.message }];
  }
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.flatMap((issue) => describe(issue, value)).map((e) => ({ ...e, path: prefix ? (e.path ? `${prefix}.${e.path}` : prefix) : e.path }));
  throw new ValidationError(errors);
}
