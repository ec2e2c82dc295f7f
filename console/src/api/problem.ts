/**
 * RFC 9457 problems as the API answers them: a stable `code`, a `detail` for people and, for
 * validation failures, `errors[].path` naming the field, so a form can put each message next
 * to its input.
 */
import type { Schemas } from './client';

export type Problem = Schemas['Problem'];

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as Problem).code === 'string' && typeof (value as Problem).status === 'number';
}

/** A problem for failures that never reached the API as one (network down, an unexpected body). */
export function localProblem(detail: string): Problem {
  return { type: 'about:blank', code: 'client_error', title: 'Request failed', status: 0, detail, request_id: '' };
}

/** The message per field path (`errors[].path`, e.g. `configuration.api_token`); the first one wins. */
export function fieldErrors(problem: Problem | undefined): Record<string, string> {
  const byPath: Record<string, string> = {};
  for (const error of problem?.errors ?? []) byPath[error.path] ??= error.message;
  return byPath;
}

/** What the form shows above its fields: the detail, unless every error sits next to a field. */
export function formMessage(problem: Problem | undefined, fieldPaths: readonly string[]): string | undefined {
  if (!problem) return undefined;
  const unplaced = (problem.errors ?? []).filter((error) => !fieldPaths.includes(error.path));
  return problem.errors?.length && unplaced.length === 0 ? 'Some fields need attention.' : problem.detail;
}
