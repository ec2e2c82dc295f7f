/**
 * Which tenant a sign-in (or a password reset request) is for: the slug named, else the email's
 * (verified) domain. In two steps, so a sign-in reads what it needs of the tenant in the same
 * round trip as the tenant itself: `loginTenantCandidate` follows the slug's or the domain's
 * pointer (one read) to the tenant it may be; the caller reads `keys` with its own items, and
 * `confirm` decides with them.
 */
import type { Deps } from '../deps';
import { keys, type ItemKey } from '../store/keys';
import type { EmailDomainRecord, TenantRecord } from '../store/records';
import type { ItemsByKey } from '../store/table-client';
import { confirmRouting, routingPointerOf, routingRecordKey } from './email-domains';

export interface TenantCandidate {
  /** The tenant the pointer names: nothing read for it may be used before `confirm` says it is the one. */
  tenantId: string;
  /** What `confirm` needs read. */
  keys: ItemKey[];
  /** The tenant, when the items read (`keys` among them) confirm it. */
  confirm(items: ItemsByKey): Promise<TenantRecord | undefined>;
}

export async function loginTenantCandidate(deps: Deps, slug: string | undefined, email: string | undefined): Promise<TenantCandidate | undefined> {
  if (slug) {
    const pointer = await deps.table.get<{ tenant_id: string }>(keys.tenantSlug(slug));
    if (!pointer) return undefined;
    const tenantKey = keys.tenant(pointer.tenant_id);
    return { tenantId: pointer.tenant_id, keys: [tenantKey], confirm: (items) => Promise.resolve(items.get<TenantRecord>(tenantKey)) };
  }
  if (email === undefined) return undefined;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const tenantId = await routingPointerOf(deps, domain);
  if (tenantId === undefined) return undefined;
  const tenantKey = keys.tenant(tenantId);
  const recordKey = routingRecordKey(tenantId, domain);
  return {
    tenantId,
    keys: [tenantKey, recordKey],
    confirm: async (items) => ((await confirmRouting(deps, domain, items.get<EmailDomainRecord>(recordKey))) === tenantId ? items.get<TenantRecord>(tenantKey) : undefined),
  };
}
