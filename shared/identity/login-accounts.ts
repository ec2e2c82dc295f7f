/**
 * Whose account a sign-in or reset request names: an email (its domain routes to the tenant
 * unless a slug is given) or a username (the slug is required). The answer also names the
 * account for the credential rate limits: an existing user's username counts under the user's
 * email, so switching between email and username gives an attacker no extra attempts.
 *
 * Three round trips at most whatever the path: the slug's or domain's pointer (none when it is
 * held from an earlier sign-in: `tenant-routing.ts`); then, in one batch, what confirms the
 * tenant, the user's email or username pointer, and whatever else the caller will need of the
 * tenant (`alongside`); then the user.
 */
import type { Deps } from '../deps';
import { getUser } from '../store/identity-items';
import { keys, type ItemKey } from '../store/keys';
import type { TenantRecord, UserRecord } from '../store/records';
import { ItemsByKey } from '../store/table-client';
import { loginTenantCandidate } from './tenant-routing';

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
  /** The items `alongside` named for the tenant, read with it (nothing was read when there is no tenant). */
  alongside: ItemsByKey;
}

export async function findLoginAccount(deps: Deps, name: AccountName, alongside: (tenantId: string) => ItemKey[] = () => []): Promise<LoginAccount> {
  const username = name.username?.toLowerCase();
  const email = (name.email ?? '').toLowerCase();
  // A username needs the slug; an email without one is routed by its domain.
  let candidate = username !== undefined && !name.tenant ? undefined : await loginTenantCandidate(deps, name.tenant, email);
  let tenant: TenantRecord | undefined;
  let user: UserRecord | undefined;
  let read = new ItemsByKey([], []);
  let pointerKey: ItemKey | undefined;
  while (candidate) {
    pointerKey = username !== undefined ? keys.userUsername(candidate.tenantId, username) : keys.userEmail(candidate.tenantId, email);
    read = await deps.table.getItems([...candidate.keys, pointerKey, ...alongside(candidate.tenantId)]);
    tenant = await candidate.confirm(read);
    if (tenant || !candidate.fresh) break;
    // A pointer held in memory that did not confirm may have moved on: read it again.
    const fresh = await candidate.fresh();
    candidate = fresh?.tenantId === candidate.tenantId ? undefined : fresh;
  }
  if (tenant && pointerKey) {
    const pointer = read.get<{ user_id: string }>(pointerKey);
    user = pointer ? await getUser(deps, tenant.id, pointer.user_id) : undefined;
  }
  const account = username !== undefined ? (user?.email ?? `~${username}`) : email;
  return { tenant, user, limiterSubject: `${tenant?.id ?? name.tenant ?? '-'}:${account}`, alongside: tenant ? read : new ItemsByKey([], []) };
}
