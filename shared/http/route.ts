/**
 * The shape of one entry of the route table (functions/routes/: one module per route, gathered
 * in its index.ts) and the parts route modules build entries from. Pure data: the CDK stack,
 * the local host and the OpenAPI document are all derived from the table.
 */
import type { z } from 'zod/mini';
import { responseHeaders } from './headers';
import type { MfaAction } from '../store/identity-enums';
import type { Permission } from '../identity/permissions';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * - `public`: no credential.
 * - `bearer`: an access token (JWT) or a PAT is required.
 * - `bearer_or_mfa_token`: an access token, or the `mfa_token` of a login waiting for its MFA
 *   (the handler resolves which; the middleware only authenticates a bearer when present).
 */
export type AuthKind = 'public' | 'bearer' | 'bearer_or_mfa_token';

/**
 * A header a route reads or answers. The zod schema validates a request header (when the
 * route declares it) and is what the OpenAPI document publishes.
 */
export interface HeaderSpec {
  description: string;
  schema: z.core.$ZodType;
  /** Request: the client must send it. Response: every answer of that status carries it. */
  required?: boolean;
}

export interface ResponseSpec {
  description: string;
  schema?: z.core.$ZodType;
  /** Defaults to application/json; several when the answer's type depends on what was asked (an export's format). */
  contentType?: string | readonly string[];
  /** Response headers beyond the generic ones (content-type, cache-control, x-request-id). */
  headers?: Record<string, HeaderSpec>;
}

/** A body field that manages credentials: set at all (its name), or set to `value`. */
export type SessionOnlyField = string | { name: string; value: unknown };

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway syntax: `/v1/users/{id}`. */
  path: string;
  /** The handler module: `functions/<handler>.ts`. */
  handler: string;
  auth: AuthKind;
  /** The permission the credential must carry (after scopes are applied). */
  permission?: Permission;
  /**
   * Credential management (password, MFA, personal access tokens, the IdP): refused (403) to a
   * personal access token whatever its scopes and the tenant's MFA policy, since a leaked
   * automation token must not be able to lock its owner out or mint itself successors.
   * `true`: the whole route. `{ body: [...] }`: only a request whose body sets one of these
   * fields (a user's password, email or tenant administration: each would hand the account,
   * or a tenant admin's, to whoever holds the token); the rest of the route stays open to PATs.
   */
  sessionOnly?: true | { body: readonly SessionOnlyField[] };
  /** The tenant MFA policy action this route performs (step-up when the policy lists it). */
  mfaAction?: MfaAction;
  /** Counted by the per-source-IP limiter of the authentication surface. */
  ipRateLimited?: boolean;
  summary: string;
  tag: string;
  request?: {
    body?: z.core.$ZodType;
    /** How the body is encoded: JSON (the default), or an HTML form (SAML HTTP-POST, OIDC form_post). */
    bodyEncoding?: 'json' | 'form';
    query?: z.core.$ZodType;
    params?: z.core.$ZodType;
    /** Request headers the route reads (`If-Match`, `Idempotency-Key`), by their canonical name. */
    headers?: Record<string, HeaderSpec>;
  };
  responses: Record<number, ResponseSpec>;
}

const fieldName = (field: SessionOnlyField): string => (typeof field === 'string' ? field : field.name);

/** How a session-only field reads in a message or the document: `email`, `tenant_admin: true`. */
export function describeSessionOnlyField(field: SessionOnlyField): string {
  return typeof field === 'string' ? field : `${field.name}: ${JSON.stringify(field.value)}`;
}

/**
 * The session-only fields a request body sets, as `describeSessionOnlyField` reads them; empty
 * when the route has none or the body is not an object (validation answers that one).
 */
export function sessionOnlyFieldsSet(route: RouteDefinition, body: unknown): string[] {
  if (route.sessionOnly === undefined || route.sessionOnly === true || typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const fields = body as Record<string, unknown>;
  return route.sessionOnly.body
    .filter((field) => {
      const name = fieldName(field);
      if (!Object.hasOwn(fields, name) || fields[name] === undefined) return false;
      return typeof field === 'string' || fields[name] === field.value;
    })
    .map(describeSessionOnlyField);
}

export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** An error answer of a route: described in the document, its body is always a Problem. */
export const problem = (description: string): ResponseSpec => ({ description });
/** A 302 to where the browser goes next. */
export const redirectTo = (description: string): ResponseSpec => ({ description, headers: { Location: responseHeaders.location } });
/** Answers that carry the resource's version for a later `If-Match`. */
export const versioned: Record<string, HeaderSpec> = { ETag: responseHeaders.etag };
