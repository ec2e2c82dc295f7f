/**
 * The one error catalogue. Domain code throws these; the problem+json serializer
 * (shared/http/problem.ts) turns them into RFC 9457 answers with stable codes.
 */

export interface FieldError {
  path: string;
  message: string;
}

export const problemCatalogue = {
  validation_failed: { status: 400, title: 'Validation failed' },
  malformed_json: { status: 400, title: 'Malformed JSON' },
  unauthenticated: { status: 401, title: 'Unauthenticated' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  mfa_required: { status: 401, title: 'MFA required' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  limit_exceeded: { status: 409, title: 'Limit exceeded' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  unprocessable: { status: 422, title: 'Unprocessable request' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Service unavailable' },
} as const;

export type ProblemCode = keyof typeof problemCatalogue;

export class TesseraError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  readonly errors: FieldError[] | undefined;
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  readonly headers: Record<string, string>;
  /** A 5xx whose detail Tessera wrote for the client (nothing from underneath): answered as is. */
  readonly publicDetail: boolean;

  constructor(code: ProblemCode, detail?: string, options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown; publicDetail?: boolean } = {}) {
    super(detail ?? problemCatalogue[code].title, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = problemCatalogue[code].status;
    this.title = problemCatalogue[code].title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.publicDetail = options.publicDetail ?? false;
  }
}

export class ValidationError extends TesseraError {
  constructor(errors: FieldError[], detail?: string) {
    super('validation_failed', detail ?? errors.map((e) => `${e.path || '(body)'} ${e.message}`).join('; '), { errors });
  }
}

export class MalformedJsonError extends TesseraError {
  constructor(detail = 'The request body is not valid JSON') {
    super('malformed_json', detail);
  }
}

export class PayloadTooLargeError extends TesseraError {
  constructor(limitBytes: number) {
    super('payload_too_large', `The request body exceeds ${limitBytes} bytes`);
  }
}

/** A body that is not labelled JSON; `Accept` names what is taken (RFC 9110 §15.5.16). */
export class UnsupportedMediaTypeError extends TesseraError {
  constructor() {
    super('unsupported_media_type', 'The body must be sent with Content-Type: application/json (or a +json type)', { headers: { accept: 'application/json' } });
  }
}

/** A count limit of the contract is reached (PATs per user, connections per workspace, workspaces per tenant). */
export class LimitExceededError extends TesseraError {
  constructor(detail: string) {
    super('limit_exceeded', detail);
  }
}

export class UnauthenticatedError extends TesseraError {
  constructor(detail = 'A valid credential is required') {
    super('unauthenticated', detail, { headers: { 'www-authenticate': 'Bearer' } });
  }
}

export class InvalidCredentialsError extends TesseraError {
  constructor() {
    super('invalid_credentials', 'The email or password is incorrect');
  }
}

/** A refused MFA answer: same code as a failed login, in words that point at the code itself. */
export class InvalidMfaCodeError extends TesseraError {
  constructor(kind: 'totp' | 'backup_code') {
    super(
      'invalid_credentials',
      kind === 'totp'
        ? 'The code is wrong or was already used; enter the next code your authenticator app shows'
        : 'The backup code is wrong or was already used; each backup code works once',
    );
  }
}

export class MfaRequiredError extends TesseraError {
  constructor(detail = 'This action needs a recent multi-factor authentication') {
    super('mfa_required', detail, {
      headers: { 'www-authenticate': 'Bearer error="insufficient_user_authentication", error_description="A recent MFA is required"' },
    });
  }
}

export class ForbiddenError extends TesseraError {
  constructor(detail = 'You are not allowed to do this') {
    super('forbidden', detail);
  }
}

export class NotFoundError extends TesseraError {
  constructor(what = 'resource') {
    super('not_found', `The ${what} does not exist`);
  }
}

export class ConflictError extends TesseraError {
  constructor(detail: string) {
    super('conflict', detail);
  }
}

export class PreconditionFailedError extends TesseraError {
  constructor(detail = 'The resource has changed; fetch it again') {
    super('precondition_failed', detail);
  }
}

export class RateLimitedError extends TesseraError {
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('rate_limited', `Too many attempts; retry in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
  }
}

/**
 * A dependency did not answer: nothing was decided, try later. `retryAfterSeconds` becomes
 * `Retry-After`; `publicDetail` lets the detail through to the client where it names only
 * what the client already knows (e.g. the DNS name it asked to verify).
 */
export class ServiceUnavailableError extends TesseraError {
  constructor(detail = 'The service is temporarily unavailable', options: { cause?: unknown; retryAfterSeconds?: number; publicDetail?: boolean } = {}) {
    const { retryAfterSeconds, ...rest } = options;
    super('unavailable', detail, retryAfterSeconds === undefined ? rest : { ...rest, headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

