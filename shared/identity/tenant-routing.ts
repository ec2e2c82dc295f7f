/**
 * Which tenant a sign-in (or a password reset request) is for: the slug named, else the email's
 * (verified) domain. In two steps, so a sign-in reads what it needs of the tenant in the same
 * round trip as the tenant itself: `loginTenantCandidate` follows the slug's or the domain's
 * pointer to the tenant it may be; the caller reads `keys` with its own items, and `confirm`
 * decides with them.
 *
 * A pointer is only an index: the tenant is confirmed every time by what is read for it (the
 * tenant record and its slug; for a domain, the tenant's own record of it, verified, which one
 * tenant at most holds at a time). So the pointers followed lately are kept across warm
 * invocations, which saves the round trip that reads them; one that has moved on since fails
 * its confirmation, is forgotten, and is read again (`fresh`): a login never lands in a tenant
 * the pointer no longer names, it only pays the read it tried to save (`recent-pointers.ts`).
 */
import type { Deps } from '../deps';
import { keys, type ItemKey } from '../store/keys';
import type { EmailDomainRecord, TenantRecord } from '../store/records';
import type { ItemsByKey } from '../store/table-client';
import { confirmRouting, routingPointerOf, routingRecordKey } from './email-domains';
import { recentPointers } from './recent-pointers';

export interface TenantCandidate {
  /** The tenant the pointer names: nothing read for it may be used before `confirm` says it is the one. */
  tenantId: string;
  /** What `confirm` needs read. */
  keys: ItemKey[];
  /** The tenant, when the items read (`keys` among them) confirm it. */
  confirm(items: ItemsByKey): Promise<TenantRecord | undefined>;
  /** Present when the pointer came from memory: the candidate after reading it again (and forgetting the one held). */
  fresh?: () => Promise<TenantCandidate | undefined>;
}

export async function loginTenantCandidate(deps: Deps, slug: string | undefined, email: string | undefined): Promise<TenantCandidate | undefined> {
  if (slug) return remembered(deps, `slug:${slug}`, async () => (await deps.table.get<{ tenant_id: string }>(keys.tenantSlug(slug)))?.tenant_id, (tenantId) => slugCandidate(tenantId, slug));
  if (email === undefined) return undefined;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return remembered(deps, `domain:${domain}`, () => routingPointerOf(deps, domain), (tenantId) => domainCandidate(deps, tenantId, domain));
}

/** The candidate of the pointer held for `name`, else of the one read now (then held: only a pointer that exists is kept). */
async function remembered(deps: Deps, name: string, readPointer: () => Promise<string | undefined>, candidateOf: (tenantId: string) => TenantCandidate): Promise<TenantCandidate | undefined> {
  const memory = deps.part(recentPointers);
  const readNow = async () => {
    const tenantId = await readPointer();
    if (tenantId === undefined) return undefined;
    memory.set(name, tenantId, deps.clock.now().getTime());
    return candidateOf(tenantId);
  };
  const held = memory.get(name, deps.clock.now().getTime());
  if (held === undefined) return readNow();
  return {
    ...candidateOf(held),
    fresh: () => {
      memory.forget(name);
      return readNow();
    },
  };
}

function slugCandidate(tenantId: string, slug: string): TenantCandidate {
  const tenantKey = keys.tenant(tenantId);
  return {
    tenantId,
    keys: [tenantKey],
    confirm: (items) => {
      const tenant = items.get<TenantRecord>(tenantKey);
      return Promise.resolve(tenant?.slug === slug ? tenant : undefined);
    },
  };
}

function domainCandidate(deps: Deps, tenantId: string, domain: string): TenantCandidate {
  const tenantKey = keys.tenant(tenantId);
  const recordKey = routingRecordKey(tenantId, domain);
  return {
    tenantId,
    keys: [tenantKey, recordKey],
    confirm: async (items) => ((await confirmRouting(deps, domain, items.get<EmailDomainRecord>(recordKey))) === tenantId ? items.get<TenantRecord>(tenantKey) : undefined),
  };
}
