/**
 * What went wrong with one AWS SDK call, in the few kinds the connector answers differently.
 * The SDK names a service error after the provider's error code (`InvalidClientTokenId`...);
 * socket errors keep Node's `code`; an abort through the signal is an `AbortError`.
 */

export type AwsFailure =
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'throttled' }
  | { kind: 'rejected-credentials'; code: string }
  | { kind: 'access-denied'; code: string }
  | { kind: 'service'; code: string; status: number | undefined };

const CREDENTIAL_CODES = new Set([
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'UnrecognizedClientException',
  'InvalidAccessKeyId',
  'ExpiredToken',
  'ExpiredTokenException',
]);

const THROTTLING_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'SlowDown',
]);

export function classifyAwsError(error: unknown, signal: AbortSignal): AwsFailure {
  const name = error instanceof Error ? error.name : '';
  if (signal.aborted || name === 'AbortError' || name === 'TimeoutError') return { kind: 'timeout' };

  const status = httpStatusOf(error);
  if (status === undefined) {
    const code = systemCodeOf(error);
    if (code) return { kind: 'unreachable', reason: code };
  }
  if (THROTTLING_CODES.has(name) || status === 429) return { kind: 'throttled' };
  if (CREDENTIAL_CODES.has(name)) return { kind: 'rejected-credentials', code: name };
  if (name === 'AccessDenied' || name === 'AccessDeniedException') return { kind: 'access-denied', code: name };
  return { kind: 'service', code: name || 'UnknownError', status };
}

/** Service errors carry `$metadata.httpStatusCode`; socket errors do not. */
function httpStatusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object' || !('$metadata' in error)) return undefined;
  const metadata = error.$metadata;
  if (!metadata || typeof metadata !== 'object' || !('httpStatusCode' in metadata)) return undefined;
  return typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
}

/** `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`...: Node's socket error codes. */
function systemCodeOf(error: unknown): string | undefined {
  if (!error || typeof error !== 'object' || !('code' in error)) return undefined;
  return typeof error.code === 'string' && /^E[A-Z_]+$/.test(error.code) ? error.code : undefined;
}
