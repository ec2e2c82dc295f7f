/**
 * Whose account a sign-in or reset request names: an email (its domain routes to the tenant
 * unless a slug is given) or a username (the slug is required). The answer also names the
 * account for the credential rate limits: an existing user's username counts under the user's
 * email, so switching between email and username gives an attacker no extra attempts.
 *
 * Three round trips at most whatever the path: the slug's or domain's pointer (none when it is
 * held from an earlier sign-in: `tenant-routing.ts`); then, in one batch, what confirms the
 * tenant, the user's email or username pointer, and whatever else the caller will need of the
 * tenant (`alongside`); then the user (beside the attempt's count, for an email). The user's id
 * is held like the tenant's pointers (`recent-pointers.ts`), so a returning user is read in the
 * batch with the pointer that confirms it, one round trip fewer: the round trips of a known,
 * returning user are then those of an unknown email.
 */
import type { Deps } from '../deps';
import { getUser } from '../store/identity-items';
import { keys, type ItemKey } from '../store/keys';
import type { TenantRecord, UserRecord } from '../store/records';
import { ItemsByKey } from '../store/table-client';
import { recentPointers } from './recent-pointers';
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

/**
 * The account, and `countAttempt`'s answer for it: called with the limiter subject as soon as
 * that is known, so for an email (whose subject does not depend on the user) the user is read
 * while the attempt is counted, one round trip sooner; for a username, after the user is read.
 */
export async function findLoginAccount<Counted = undefined>(
  deps: Deps,
  name: AccountName,
  alongside: (tenantId: string) => ItemKey[] = () => [],
  countAttempt: (limiterSubject: string) => Promise<Counted> = () => Promise.resolve(undefined as Counted),
): Promise<LoginAccount & { counted: Counted }> {
  const username = name.username?.toLowerCase();
  const email = (name.email ?? '').toLowerCase();
  // A username needs the slug; an email without one is routed by its domain.
  let candidate = username !== undefined && !name.tenant ? undefined : await loginTenantCandidate(deps, name.tenant, email);
  const heldUsers = deps.part(recentPointers);
  const now = deps.clock.now().getTime();
  let tenant: TenantRecord | undefined;
  let read = new ItemsByKey([], []);
  let pointerKey: ItemKey | undefined;
  let heldUser: { name: string; id: string | undefined } | undefined;
  while (candidate) {
    pointerKey = username !== undefined ? keys.userUsername(candidate.tenantId, username) : keys.userEmail(candidate.tenantId, email);
    const heldName = `user:${pointerKey.PK}:${pointerKey.SK}`;
    heldUser = { name: heldName, id: heldUsers.get(heldName, now) };
    const userKey = heldUser.id === undefined ? [] : [keys.user(candidate.tenantId, heldUser.id)];
    read = await deps.table.getItems([...candidate.keys, pointerKey, ...userKey, ...alongside(candidate.tenantId)]);
    tenant = await candidate.confirm(read);
    if (tenant || !candidate.fresh) break;
    // A pointer held in memory that did not confirm may have moved on: read it again.
    const fresh = await candidate.fresh();
    candidate = fresh?.tenantId === candidate.tenantId ? undefined : fresh;
  }
  const userPointer = tenant && pointerKey ? read.get<{ user_id: string }>(pointerKey) : undefined;
  const readUser = async () => {
    if (!tenant || !userPointer || !heldUser) {
      if (heldUser) heldUsers.forget(heldUser.name);
      return undefined;
    }
    // The user held for this name was read with its pointer: the pointer, read now, confirms it.
    if (userPointer.user_id === heldUser.id) return read.get<UserRecord>(keys.user(tenant.id, heldUser.id));
    heldUsers.set(heldUser.name, userPointer.user_id, now);
    return getUser(deps, tenant.id, userPointer.user_id);
  };
  const subjectOf = (user: UserRecord | undefined) => `${tenant?.id ?? name.tenant ?? '-'}:${username !== undefined ? (user?.email ?? `~${username}`) : email}`;
  const found = { tenant, alongside: tenant ? read : new ItemsByKey([], []) };
  if (username !== undefined) {
    const user = await readUser();
    return { ...found, user, limiterSubject: subjectOf(user), counted: await countAttempt(subjectOf(user)) };
  }
  const limiterSubject = subjectOf(undefined);
  const [user, counted] = await Promise.all([readUser(), countAttempt(limiterSubject)]);
  return { ...found, user, limiterSubject, counted };
}
