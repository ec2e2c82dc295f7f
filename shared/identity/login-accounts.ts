/**
 * Whose account a sign-in or reset request names: an email (its domain routes to the tenant
 * unless a slug is given) or a username (the slug is required). The answer also names the
 * account for the credential rate limits: an existing user's username counts under the user's
 * email, so switching between email and username gives an attacker no extra attempts.
 */
import type { Deps } from '../deps';
import { getTenantBySlug, getUserByEmail, getUserByUsername } from '../store/identity-items';
import type { TenantRecord, UserRecord } from '../store/records';
import { resolveLoginTenant } from './tenant-routing';

export interface AccountName {
  tenant?: string | undefined;
  email?: string | undefined;
  username?: string | undefined;
}

export interface LoginAccount {
  tenant: TenantRecord | undefined;
  user: UserRecord | undefined;
  /** The account as the rate limits count it (never shown to anyone). */
  limiterSubject: string;
}

export async function findLoginAccount(deps: Deps, name: AccountName): Promise<LoginAccount> {
  if (name.username !== undefined) {
    const username = name.username.toLowerCase();
    const tenant = name.tenant ? await getTenantBySlug(deps, name.tenant) : undefined;
    const user = tenant ? await getUserByUsername(deps, tenant.id, username) : undefined;
    return { tenant, user, limiterSubject: `${tenant?.id ?? name.tenant ?? '-'}:${user?.email ?? `~${username}`}` };
  }
  const email = (name.email ?? '').toLowerCase();
  const tenant = await resolveLoginTenant(deps, name.tenant, email);
  const user = tenant ? await getUserByEmail(deps, tenant.id, email) : undefined;
  return { tenant, user, limiterSubject: `${tenant?.id ?? name.tenant ?? '-'}:${email}` };
}
