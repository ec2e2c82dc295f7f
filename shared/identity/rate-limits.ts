/**
 * Rate limits of the authentication surface (DESIGN: "count credential failures per account
 * and per (account, IP) and all requests per IP").
 *
 * A credential check first *reserves* a failure slot for the account and for the (account,
 * IP) pair, and only then verifies; a success gives the slots back. So N parallel wrong
 * attempts against a limit L cost at most L verifications, and while an account is limited
 * even the right password is refused (with the same 429 as anyone else).
 */
import { createHash } from 'node:crypto';
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { RateLimitedError } from '../errors';
import { decrementCounter, giveBackItem, incrementCounter } from '../store/rate-counters';
import type { TransactItem } from '../store/table-client';

/** Counter subjects are digests: raw emails and addresses never become keys. */
const subjectOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

export async function consumeSourceIpRequest(deps: Deps, sourceIp: string): Promise<void> {
  const { ipRequests, windowSeconds } = deps.config.rateLimits;
  const result = await incrementCounter(deps.table, {
    limiter: 'ip',
    subject: subjectOf(sourceIp),
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
 * is one conditional write: either both slots are taken or neither is.
 */
export async function reserveCredentialAttempt(deps: Deps, kind: 'password' | 'mfa' | 'reset', account: string, sourceIp: string): Promise<CredentialAttempt> {
  const { accountFailures, accountIpFailures, windowSeconds } = deps.config.rateLimits;
  const reserved = await incrementCounter(deps.table, {
    limiter: `${kind}-acct`,
    subject: subjectOf(account),
    limit: accountFailures,
    part: { name: subjectOf(account, sourceIp), limit: accountIpFailures },
    windowSeconds,
    nowSeconds: epochSeconds(deps.clock),
  });
  if (!reserved.allowed) throw new RateLimitedError(reserved.retryAfterSeconds);
  return {
    succeeded: () => decrementCounter(deps.table, reserved.slot),
    releaseItem: () => giveBackItem(deps.table, reserved.slot),
  };
}
