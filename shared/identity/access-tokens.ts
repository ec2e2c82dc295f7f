/**
 * Short-lived access tokens (JWT, EdDSA, `kid` in the header), per API.md "Access tokens".
 * Verification pins the algorithm, issuer and audience and needs every claim we rely on;
 * anything else about the token is the caller's business (user status, workspace role).
 */
import { SignJWT, decodeProtectedHeader, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { randomUUID, type KeyObject } from 'node:crypto';
import { epochSeconds } from '../clock';
import type { Deps, DepsPart } from '../deps';
import { UnauthenticatedError } from '../errors';
import { JWT_ALGORITHM, JWT_CLOCK_TOLERANCE_SECONDS } from '../crypto/signing-keys';
import { currentSigningKey } from './issuer-signing-key';

export interface AccessTokenSubject {
  userId: string;
  tenantId: string;
  workspaceId: string;
  scopes: readonly string[];
  amr: readonly string[];
  authTime: number;
  mfaAt: number | undefined;
  /**
   * The login session (`sid` claim): the id of its refresh family, shared by every access
   * token of one sign-in, its refreshes and step-ups. Logout and a password change end
   * sessions by this id.
   */
  sessionId: string;
}

export interface AccessTokenClaims extends Omit<AccessTokenSubject, 'sessionId'> {
  /** Absent only from tokens issued before the claim existed (they expire within the access token TTL). */
  sessionId: string | undefined;
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  tenant_id: string;
  workspace_id: string;
}

/** The leeway verification grants an expired token (seconds). */
export const ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS = JWT_CLOCK_TOLERANCE_SECONDS;

/**
 * Signs with the issuer's private key (`issuer-signing-key.ts`): only the functions that call
 * this carry that module (tree-shaken from the others, checked by
 * test/infra/handler-capabilities.test.ts).
 */
export async function issueAccessToken(deps: Deps, subject: AccessTokenSubject): Promise<{ token: string; expiresIn: number }> {
  const { issuer, audience, accessTokenTtlSeconds } = deps.config.jwt;
  const now = epochSeconds(deps.clock);
  const key = await currentSigningKey(deps);
  const token = await new SignJWT({
    tenant_id: subject.tenantId,
    workspace_id: subject.workspaceId,
    scope: subject.scopes.join(' '),
    amr: [...subject.amr],
    auth_time: subject.authTime,
    sid: subject.sessionId,
    ...(subject.mfaAt !== undefined ? { mfa_at: subject.mfaAt } : {}),
  })
    .setProtectedHeader({ alg: JWT_ALGORITHM, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(subject.userId)
    .setIssuedAt(now)
    .setExpirationTime(now + accessTokenTtlSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { token, expiresIn: accessTokenTtlSeconds };
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function claimsFrom(payload: JWTPayload): AccessTokenClaims {
  const p = payload as JWTPayload & Record<string, unknown>;
  const valid =
    typeof p.sub === 'string' &&
    typeof p.tenant_id === 'string' &&
    typeof p.workspace_id === 'string' &&
    typeof p.scope === 'string' &&
    isStringArray(p.amr) &&
    typeof p.auth_time === 'number' &&
    (p.mfa_at === undefined || typeof p.mfa_at === 'number') &&
    (p.sid === undefined || typeof p.sid === 'string') &&
    typeof p.jti === 'string' &&
    typeof p.iat === 'number' &&
    typeof p.exp === 'number';
  if (!valid) throw new UnauthenticatedError('The access token is malformed');
  return {
    userId: p.sub as string,
    tenantId: p.tenant_id as string,
    workspaceId: p.workspace_id as string,
    scopes: (p.scope as string).split(' ').filter(Boolean),
    amr: p.amr as string[],
    authTime: p.auth_time as number,
    mfaAt: p.mfa_at as number | undefined,
    sessionId: p.sid as string | undefined,
    jti: p.jti as string,
    issuedAt: p.iat as number,
    expiresAt: p.exp as number,
  };
}

/**
 * Access tokens this process has verified, so that a client's next request with the same token
 * costs no signature check (an Ed25519 verify is most of the CPU of a warm authenticated request).
 * An entry holds the key object that verified it and counts only while the published key set
 * still gives that very object for the token's kid, so a key withdrawn or retired past its time
 * refuses the token at once, as before; the time claims are checked again at each use. Only
 * tokens that verified are kept, so made-up tokens cannot fill it.
 */
interface VerifiedAccessToken {
  key: KeyObject;
  claims: AccessTokenClaims;
  notBefore: number | undefined;
}

/** A warm function serves a few clients at a time; beyond this many tokens the oldest is dropped. */
const VERIFIED_TOKENS_KEPT = 1000;

const verifiedAccessTokens: DepsPart<Map<string, VerifiedAccessToken>> = { name: 'verified access tokens', create: () => new Map() };

/** jose's time checks, for a token verified before: expired when `exp <= now - tolerance`, early when `nbf > now + tolerance`. */
function stillTimely(deps: Deps, verified: VerifiedAccessToken): boolean {
  const now = epochSeconds(deps.clock);
  if (verified.notBefore !== undefined && verified.notBefore > now + ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS) return false;
  return verified.claims.expiresAt > now - ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS;
}

export async function verifyAccessToken(deps: Deps, token: string): Promise<AccessTokenClaims> {
  const { issuer, audience } = deps.config.jwt;
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw new UnauthenticatedError('The access token is not valid');
  }
  // Looked up outside the verification below: a table that does not answer is an outage
  // (5xx), not a bad token.
  const key = typeof kid === 'string' && kid !== '' ? await deps.verificationKeys.keyFor(kid) : undefined;
  if (!key) throw new UnauthenticatedError('The access token was signed by an unknown key');
  const verifiedTokens = deps.part(verifiedAccessTokens);
  const verified = verifiedTokens.get(token);
  if (verified?.key === key) {
    if (stillTimely(deps, verified)) return verified.claims;
    verifiedTokens.delete(token);
  }
  let claims: AccessTokenClaims;
  try {
    const { payload } = await jwtVerify(
      token,
      key,
      {
        algorithms: [JWT_ALGORITHM],
        issuer,
        audience,
        typ: 'at+jwt',
        currentDate: deps.clock.now(),
        clockTolerance: ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      },
    );
    claims = claimsFrom(payload);
    if (verifiedTokens.size >= VERIFIED_TOKENS_KEPT) verifiedTokens.delete(verifiedTokens.keys().next().value!);
    // Frozen: every request that presents the token shares these claims.
    verifiedTokens.set(token, { key, claims: Object.freeze({ ...claims, scopes: Object.freeze([...claims.scopes]), amr: Object.freeze([...claims.amr]) }), notBefore: payload.nbf });
  } catch (error) {
    if (error instanceof UnauthenticatedError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new UnauthenticatedError('The access token has expired');
    throw new UnauthenticatedError('The access token is not valid');
  }
  return claims;
}
