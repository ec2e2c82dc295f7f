/**
 * Rate limits of the authentication surface (DESIGN: "count credential failures per account
 * and per (account, IP) and all requests per IP").
 *
 * A credential check first *reserves* a failure slot for the account and for the (account,
 * IP) pair, and only then verifies; a success gives the slots back. So N parallel wrong
 * attempts against a limit L cost at most L verifications.
 *
 * Failures from other addresses never lock a password's owner out (API.md, Errors): once the
 * account has used its L failures, an address that has none in the window may still try, up
 * to 10 × L for the account; an address with a failure in the window is refused at L as
 * before. The owner signing in from their usual address is such an address (they typed right,
 * or their failures were given back), so an attacker who wants the owner locked out has to
 * spend 10 × L guesses first, each from an address not yet used in the window (past L, every
 * fresh address takes one failure and is then refused). Which limit applies is decided by the
 * same conditional write that takes the slot (store/rate-counters.ts: the pair's count is a
 * part of the account's window item, so "this address has no failures" is read where the slot
 * is taken): no read and no call is added to a sign-in. The price is that many addresses buy
 * more guesses (10 × L, not L, per window), which is why addresses are counted by their /64
 * for IPv6 (`rateLimitedAddressOf`). Only password checks get the allowance: an MFA code is
 * asked of someone who already gave the password, and reset links are mailed, not guessed.
 */
import { createHash } from 'node:crypto';
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { RateLimitedError } from '../errors';
import { rateLimitedAddressOf } from '../http/client-address';
import { decrementCounter, giveBackItem, incrementCounter } from '../store/rate-counters';
import type { TransactItem } from '../store/table-client';

/** Counter subjects are digests: raw emails and addresses never become keys. */
const subjectOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/** How far past the account's limit an address without failures may still try a password. */
export const OWNER_ALLOWANCE_FACTOR = 10;

export async function consumeSourceIpRequest(deps: Deps, sourceIp: string): Promise<void> {
  const { ipRequests, windowSeconds } = deps.config.rateLimits;
  const result = await incrementCounter(deps.table, {
    limiter: 'ip',
    subject: subjectOf(rateLimitedAddressOf(sourceIp)),
    limit: ipRequests,
    windowSeconds,
    nowSeconds: epochSeconds(deps.clock),
  });
  if (!result.allowed) throw new RateLimitedError(result.retryAfterSeconds);
}

export interface CredentialAttempt {
  /** Release the reservation: call when the credential turned out to be right. */
  succeeded(): Promise<void>;
  /**
   * The release as an item of the caller's transaction, for a success that writes one anyway
   * (a login's session): the slot goes back with the session, at no call of its own.
   */
  releaseItem(): TransactItem;
}

/**
 * Reserve a failure slot for `account` (a stable name such as tenant + email, or a user id)
 * and for (account, source IP) under the limiter `kind`; throws 429 when either is exhausted.
 * Both are counted in the account's window item (the pair as a part of it), so the reservation
 * is one conditional write: either both slots are taken or neither is. The address counts by
 * `rateLimitedAddressOf` (an IPv6 client by its /64).
 */
export async function reserveCredentialAttempt(deps: Deps, kind: 'password' | 'mfa' | 'reset', account: string, sourceIp: string): Promise<CredentialAttempt> {
  const { accountFailures, accountIpFailures, windowSeconds } = deps.config.rateLimits;
  const reserved = await incrementCounter(deps.table, {
    limiter: `${kind}-acct`,
    subject: subjectOf(account),
    limit: accountFailures,
    part: { name: subjectOf(account, rateLimitedAddressOf(sourceIp)), limit: accountIpFailures, ...(kind === 'password' ? { freshLimit: OWNER_ALLOWANCE_FACTOR * accountFailures } : {}) },
    windowSeconds,
    nowSeconds: epochSeconds(deps.clock),
  });
  if (!reserved.allowed) throw new RateLimitedError(reserved.retryAfterSeconds);
  return {
    succeeded: () => decrementCounter(deps.table, reserved.slot),
    releaseItem: () => giveBackItem(deps.table, reserved.slot),
  };
}
