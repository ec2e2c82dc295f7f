/**
 * What an SSO callback answers once it has found the login in flight: a redirect back to the
 * client application, with `code` after a login or `error` + `error_description` (OAuth 2.0
 * style) when it failed. These helpers read that redirect; they fail the test on anything else.
 */
import { expect } from 'vitest';
import type { HttpResponse } from './http-client';

/** The `error_description` of a failed login's redirect to `back` (asserting there is no code). */
export function ssoErrorOf(res: HttpResponse, back: string, error = 'access_denied'): string {
  expect(res.status, res.text).toBe(302);
  const url = new URL(res.headers.location!);
  expect(`${url.origin}${url.pathname}`).toBe(back);
  expect(url.searchParams.get('error'), url.href).toBe(error);
  expect(url.searchParams.has('code')).toBe(false);
  const description = url.searchParams.get('error_description');
  expect(description).toBeTruthy();
  return description!;
}
