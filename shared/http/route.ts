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
  /** Defaults to application/json. */
  contentType?: string;
  /** Response headers beyond the generic ones (content-type, cache-control, x-request-id). */
  headers?: Record<string, HeaderSpec>;
}

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
   */
  sessionOnly?: true;
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

export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** An error answer of a route: described in the document, its body is always a Problem. */
export const problem = (description: string): ResponseSpec => ({ description });
/** A 302 to where the browser goes next. */
export const redirectTo = (description: string): ResponseSpec => ({ description, headers: { Location: responseHeaders.location } });
/** Answers that carry the resource's version for a later `If-Match`. */
export const versioned: Record<string, HeaderSpec> = { ETag: responseHeaders.etag };
