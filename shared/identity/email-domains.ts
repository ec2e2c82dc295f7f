/**
 * Email domains a tenant has proven it controls, by a DNS TXT challenge (as WorkOS and Okta
 * do). A tenant admin adds a domain (`pending`, with a random value for the TXT record
 * `_tessera-challenge.<domain>`), publishes the record, and asks for verification: Tessera
 * resolves the record, and when it holds the value the domain becomes `verified` and gets the
 * deployment-wide `DOMAIN#` routing pointer (one tenant per domain, a conditional write).
 * Only a verified domain routes: login and discovery find the tenant by it, SSO provisions
 * users just in time in it, and an IdP configuration may list it in `email_domains`.
 *
 * Verified domains are checked again on use: when routing meets a DNS-verified domain whose
 * last check is older than the configured interval, it resolves the record again; if the zone
 * says the value is gone, the domain becomes `failed` and loses its pointer (audited); if DNS
 * does not answer, it stays. Domains the operator gave at tenant creation are verified on the
 * operator's word and never re-checked.
 */
import { randomBytes } from 'node:crypto';
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { failedConditionIndexes, isConditionFailure } from '../store/client';
import { getTenant } from '../store/identity-items';
import { keys } from '../store/keys';
import type { EmailDomainRecord, TenantRecord } from '../store/records';
import type { TransactItem } from '../store/table-client';
import { lookupTxt, type TxtLookup } from './dns-txt-lookup';
import { assertOwnTenant, type Principal } from './principal';

export const CHALLENGE_LABEL = '_tessera-challenge';
const VALUE_PREFIX = 'tessera-verification=';
/** Domains one tenant may hold records for (pending, verified or failed). */
export const MAX_DOMAINS_PER_TENANT = 50;

export interface EmailDomainView {
  domain: string;
  status: EmailDomainRecord['status'];
  method: EmailDomainRecord['method'];
  verification: { type: 'dns_txt'; name: string; value: string };
  verified_at: string | null;
  checked_at: string | null;
  last_failure: string | null;
  created_at: string;
}

export const challengeName = (domain: string) => `${CHALLENGE_LABEL}.${domain}`;
const newVerificationValue = () => `${VALUE_PREFIX}${randomBytes(24).toString('base64url')}`;

export function toEmailDomainView(record: EmailDomainRecord): EmailDomainView {
  return {
    domain: record.domain,
    status: record.status,
    method: record.method,
    verification: { type: 'dns_txt', name: challengeName(record.domain), value: record.verification_value },
    verified_at: record.verified_at,
    checked_at: record.checked_at,
    last_failure: record.last_failure,
    created_at: record.created_at,
  };
}

const getDomainRecord = (deps: Deps, tenantId: string, domain: string) => deps.table.get<EmailDomainRecord>(keys.tenantDomain(tenantId, domain));
const getPointer = (deps: Deps, domain: string) => deps.table.get<{ tenant_id: string }>(keys.emailDomain(domain));

async function ownTenantOf(deps: Deps, principal: Principal, tenantId: string): Promise<TenantRecord> {
  assertOwnTenant(principal, tenantId);
  const tenant = await getTenant(deps, tenantId);
  if (!tenant) throw new NotFoundError('tenant');
  return tenant;
}

/**
 * The tenant id another tenant's pointer names when it holds the domain for real (a verified
 * record of its own); a pointer without one (written by an IdP claim before verification
 * existed) holds nothing and may be taken over.
 */
async function holderOf(deps: Deps, domain: string): Promise<{ live: string | undefined; stale: string | undefined }> {
  const pointer = await getPointer(deps, domain);
  if (!pointer) return { live: undefined, stale: undefined };
  const record = await getDomainRecord(deps, pointer.tenant_id, domain);
  return record?.status === 'verified' ? { live: pointer.tenant_id, stale: undefined } : { live: undefined, stale: pointer.tenant_id };
}

const takenBy = (domain: string) => new ConflictError(`The domain ${domain} is verified by another tenant`);

export async function listEmailDomains(deps: Deps, principal: Principal, tenantId: string): Promise<EmailDomainView[]> {
  const tenant = await ownTenantOf(deps, principal, tenantId);
  const page = await deps.table.queryPrefix<EmailDomainRecord>(keys.tenantDomains(tenant.id), { limit: MAX_DOMAINS_PER_TENANT }, { newestFirst: false });
  return page.items.map(toEmailDomainView);
}

export async function addEmailDomain(deps: Deps, principal: Principal, tenantId: string, domain: string, sourceIp: string): Promise<EmailDomainView> {
  const tenant = await ownTenantOf(deps, principal, tenantId);
  if (await getDomainRecord(deps, tenant.id, domain)) throw new ConflictError(`The tenant already has the domain ${domain}; verify it or delete it`);
  if ((await holderOf(deps, domain)).live !== undefined) throw takenBy(domain);
  const held = await deps.table.queryPrefix<EmailDomainRecord>(keys.tenantDomains(tenant.id), { limit: MAX_DOMAINS_PER_TENANT });
  if (held.items.length >= MAX_DOMAINS_PER_TENANT) throw new ConflictError(`A tenant may hold at most ${MAX_DOMAINS_PER_TENANT} domains; delete one first`);
  const now = isoNow(deps.clock);
  const record: EmailDomainRecord = {
    tenant_id: tenant.id, domain, status: 'pending', method: 'dns_txt', verification_value: newVerificationValue(),
    verified_at: null, checked_at: null, last_failure: null, created_at: now, updated_at: now,
  };
  try {
    await deps.table.transact([
      deps.table.putItem({ ...keys.tenantDomain(tenant.id, domain), ...record }, { expression: 'attribute_not_exists(PK)' }),
      auditEventPut(deps, {
        log: 'identity', tenantId: tenant.id, workspaceId: principal.workspaceId, actorId: principal.userId,
        action: 'domain_added', targetType: 'domain', targetId: domain, payload: { domain, challenge_name: challengeName(domain) }, sourceIp,
      }).item,
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(`The tenant already has the domain ${domain}; verify it or delete it`);
    throw error;
  }
  return toEmailDomainView(record);
}

/** What a lookup found, in words for the 409 and the audit event (values shortened). */
function describeFound(lookup: Exclude<TxtLookup, { kind: 'unavailable' }>, name: string): string {
  if (lookup.kind === 'no_record') return `no TXT record at ${name}: ${lookup.detail}`;
  if (lookup.values.length === 0) return `no TXT record at ${name}`;
  const shown = lookup.values.slice(0, 5).map((v) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v));
  return `TXT record${lookup.values.length > 1 ? 's' : ''} at ${name} with other value${lookup.values.length > 1 ? 's' : ''}: ${shown.join(', ')}${lookup.values.length > 5 ? ', …' : ''}`;
}

const holdsValue = (lookup: TxtLookup, value: string) => lookup.kind === 'records' && lookup.values.some((v) => v.trim() === value);

/**
 * Marks a domain whose record was not found: a pending one stays pending (with what was found),
 * a verified one becomes `failed` and loses its routing pointer. Audited either way.
 */
async function recordFailedCheck(deps: Deps, record: EmailDomainRecord, found: string, actor: { userId: string | null; workspaceId: string | null; sourceIp: string | null }): Promise<void> {
  const now = isoNow(deps.clock);
  const wasVerified = record.status === 'verified';
  const items: TransactItem[] = [
    deps.table.updateItem({
      Key: keys.tenantDomain(record.tenant_id, record.domain),
      UpdateExpression: 'SET #status = :status, checked_at = :now, last_failure = :found, updated_at = :now',
      ConditionExpression: '#status = :was',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': wasVerified ? 'failed' : record.status, ':now': now, ':found': found, ':was': record.status },
    }),
    auditEventPut(deps, {
      log: 'identity', tenantId: record.tenant_id, workspaceId: actor.workspaceId, actorId: actor.userId,
      action: 'domain_verification_failed', targetType: 'domain', targetId: record.domain,
      payload: { domain: record.domain, found, previous_status: record.status, routing_removed: wasVerified, check: actor.userId ? 'verify' : 'recheck' }, sourceIp: actor.sourceIp,
    }).item,
  ];
  if (wasVerified) {
    items.push(deps.table.deleteItem({ Key: keys.emailDomain(record.domain), ConditionExpression: 'attribute_not_exists(PK) OR tenant_id = :me', ExpressionAttributeValues: { ':me': record.tenant_id } }));
  }
  try {
    await deps.table.transact(items);
  } catch (error) {
    // Someone else changed the domain meanwhile (a parallel check, a delete): theirs stands.
    if (!isConditionFailure(error)) throw error;
  }
}

export async function verifyEmailDomain(deps: Deps, principal: Principal, tenantId: string, domain: string, sourceIp: string): Promise<EmailDomainView> {
  const tenant = await ownTenantOf(deps, principal, tenantId);
  const record = await getDomainRecord(deps, tenant.id, domain);
  if (!record) throw new NotFoundError('domain');
  // The operator vouched for it; there is no record to look for.
  if (record.method === 'operator' && record.status === 'verified') return toEmailDomainView(record);
  const holder = await holderOf(deps, domain);
  if (holder.live !== undefined && holder.live !== tenant.id) throw takenBy(domain);

  const name = challengeName(domain);
  const lookup = await lookupTxt(deps.config.emailDomains, name);
  if (lookup.kind === 'unavailable') throw new ServiceUnavailableError(`DNS did not answer, so ${domain} could not be checked (${lookup.detail}); nothing changed, try again later`, { retryAfterSeconds: 30, publicDetail: true });
  if (!holdsValue(lookup, record.verification_value)) {
    const found = describeFound(lookup, name);
    await recordFailedCheck(deps, record, found, { userId: principal.userId, workspaceId: principal.workspaceId, sourceIp });
    throw new ConflictError(`The domain ${domain} is not verified: ${name} must have a TXT record with the value ${record.verification_value}; found ${found}`);
  }

  const now = isoNow(deps.clock);
  const verified: EmailDomainRecord = { ...record, status: 'verified', verified_at: now, checked_at: now, last_failure: null, updated_at: now };
  const pointerCondition = holder.stale !== undefined
    ? { expression: 'attribute_not_exists(PK) OR tenant_id = :me OR tenant_id = :stale', values: { ':me': tenant.id, ':stale': holder.stale } }
    : { expression: 'attribute_not_exists(PK) OR tenant_id = :me', values: { ':me': tenant.id } };
  try {
    await deps.table.transact([
      deps.table.putItem({ ...keys.emailDomain(domain), tenant_id: tenant.id }, pointerCondition),
      deps.table.putItem({ ...keys.tenantDomain(tenant.id, domain), ...verified }, { expression: 'attribute_exists(PK) AND updated_at = :was', values: { ':was': record.updated_at } }),
      auditEventPut(deps, {
        log: 'identity', tenantId: tenant.id, workspaceId: principal.workspaceId, actorId: principal.userId,
        action: 'domain_verified', targetType: 'domain', targetId: domain, payload: { domain, method: 'dns_txt', previous_status: record.status }, sourceIp,
      }).item,
    ]);
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.includes(0)) throw takenBy(domain);
    if (failed.includes(1)) throw new ConflictError(`The domain ${domain} changed meanwhile; read it again`);
    throw error;
  }
  return toEmailDomainView(verified);
}

export async function removeEmailDomain(deps: Deps, principal: Principal, tenantId: string, domain: string, sourceIp: string): Promise<void> {
  const tenant = await ownTenantOf(deps, principal, tenantId);
  const record = await getDomainRecord(deps, tenant.id, domain);
  if (!record) throw new NotFoundError('domain');
  const pointer = await getPointer(deps, domain);
  const items: TransactItem[] = [
    deps.table.deleteItem({ Key: keys.tenantDomain(tenant.id, domain), ConditionExpression: 'attribute_exists(PK)' }),
    auditEventPut(deps, {
      log: 'identity', tenantId: tenant.id, workspaceId: principal.workspaceId, actorId: principal.userId,
      action: 'domain_removed', targetType: 'domain', targetId: domain, payload: { domain, previous_status: record.status, method: record.method }, sourceIp,
    }).item,
  ];
  if (pointer?.tenant_id === tenant.id) {
    items.push(deps.table.deleteItem({ Key: keys.emailDomain(domain), ConditionExpression: 'tenant_id = :me', ExpressionAttributeValues: { ':me': tenant.id } }));
  }
  try {
    await deps.table.transact(items);
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(`The domain ${domain} changed meanwhile; read it again`);
    throw error;
  }
}

/**
 * Transaction items that make domains verified on the operator's word (tenant creation by the
 * CLI or the bootstrap, whose `tenant_created` event names them): the routing pointers first
 * (so a caller can map a failed condition index below `domains.length` to "claimed by another
 * tenant"), then the records.
 */
export function operatorVerifiedDomainItems(deps: Deps, tenantId: string, domains: string[]): TransactItem[] {
  const now = isoNow(deps.clock);
  return [
    ...domains.map((domain) => deps.table.putItem({ ...keys.emailDomain(domain), tenant_id: tenantId }, { expression: 'attribute_not_exists(PK)' })),
    ...domains.map((domain) => {
      const record: EmailDomainRecord = {
        tenant_id: tenantId, domain, status: 'verified', method: 'operator', verification_value: newVerificationValue(),
        verified_at: now, checked_at: null, last_failure: null, created_at: now, updated_at: now,
      };
      return deps.table.putItem({ ...keys.tenantDomain(tenantId, domain), ...record });
    }),
  ];
}

/** The operator pre-verifies a domain for an existing tenant (CLI `verify-domain`, test fixtures). */
export async function verifyEmailDomainAsOperator(deps: Deps, tenantId: string, domain: string): Promise<void> {
  const holder = await holderOf(deps, domain);
  if (holder.live !== undefined && holder.live !== tenantId) throw takenBy(domain);
  const existing = await getDomainRecord(deps, tenantId, domain);
  if (existing?.status === 'verified' && existing.method === 'operator') return;
  const items = operatorVerifiedDomainItems(deps, tenantId, [domain]);
  // The pointer may be this tenant's already, or a stale one: overwrite those, never another's live one.
  items[0] = deps.table.putItem({ ...keys.emailDomain(domain), tenant_id: tenantId }, {
    expression: 'attribute_not_exists(PK) OR tenant_id = :me OR tenant_id = :stale',
    values: { ':me': tenantId, ':stale': holder.stale ?? tenantId },
  });
  items.push(auditEventPut(deps, {
    log: 'identity', tenantId, actorId: null, action: 'domain_verified', targetType: 'domain', targetId: domain,
    payload: { domain, method: 'operator', previous_status: existing?.status ?? null },
  }).item);
  try {
    await deps.table.transact(items);
  } catch (error) {
    if (failedConditionIndexes(error).includes(0)) throw takenBy(domain);
    throw error;
  }
}

/** Whether a verified domain is due for a re-check (DNS-verified only). */
function recheckDue(deps: Deps, record: EmailDomainRecord): boolean {
  if (record.method !== 'dns_txt') return false;
  const last = Date.parse(record.checked_at ?? record.verified_at ?? record.created_at);
  return deps.clock.now().getTime() - last >= deps.config.emailDomains.recheckSeconds * 1000;
}

const normalizedDomain = (domain: string) => domain.toLowerCase().replace(/\.$/, '');

/**
 * The tenant an email domain routes to: the holder of its pointer, when that tenant's record
 * of it is verified and, if a re-check is due, DNS still holds the value. Best effort: a DNS
 * outage keeps the domain; the zone saying the value is gone drops it (`failed`, audited).
 */
export async function routedTenantIdOf(deps: Deps, domain: string): Promise<string | undefined> {
  const pointerTenantId = await routingPointerOf(deps, domain);
  if (pointerTenantId === undefined) return undefined;
  return confirmRouting(deps, domain, await getDomainRecord(deps, pointerTenantId, normalizedDomain(domain)));
}

/**
 * The first half of `routedTenantIdOf`, for a caller that reads the rest with other items: the
 * tenant the domain's pointer names, not yet confirmed. `routingRecordKey` is then the record to
 * read, and `confirmRouting` decides with it.
 */
export async function routingPointerOf(deps: Deps, domain: string): Promise<string | undefined> {
  return (await getPointer(deps, normalizedDomain(domain)))?.tenant_id;
}

/** The record of the domain that the tenant a pointer names must hold for the pointer to route. */
export const routingRecordKey = (pointerTenantId: string, domain: string) => keys.tenantDomain(pointerTenantId, normalizedDomain(domain));

/** The second half of `routedTenantIdOf`: the tenant, given its record of the domain as read (absent: it has none). */
export async function confirmRouting(deps: Deps, domain: string, record: EmailDomainRecord | undefined): Promise<string | undefined> {
  const normalized = normalizedDomain(domain);
  if (record?.status !== 'verified') return undefined;
  if (!recheckDue(deps, record)) return record.tenant_id;
  const lookup = await lookupTxt(deps.config.emailDomains, challengeName(normalized));
  if (lookup.kind === 'unavailable') return record.tenant_id;
  if (holdsValue(lookup, record.verification_value)) {
    const now = isoNow(deps.clock);
    await deps.table
      .update({ Key: keys.tenantDomain(record.tenant_id, normalized), UpdateExpression: 'SET checked_at = :now', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':now': now } })
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    return record.tenant_id;
  }
  await recordFailedCheck(deps, record, describeFound(lookup, challengeName(normalized)), { userId: null, workspaceId: null, sourceIp: null });
  return undefined;
}

export async function routedTenantOf(deps: Deps, domain: string): Promise<TenantRecord | undefined> {
  const tenantId = await routedTenantIdOf(deps, domain);
  return tenantId === undefined ? undefined : getTenant(deps, tenantId);
}

/**
 * An IdP configuration may list only domains the tenant has verified: 409 naming the first that
 * is another tenant's, or not (yet) verified by this one.
 */
export async function assertVerifiedDomainsOf(deps: Deps, tenantId: string, domains: string[]): Promise<void> {
  for (const domain of domains) {
    const record = await getDomainRecord(deps, tenantId, domain);
    if (record?.status === 'verified') continue;
    const holder = await holderOf(deps, domain);
    if (holder.live !== undefined && holder.live !== tenantId) throw takenBy(domain);
    throw new ConflictError(
      `The domain ${domain} is not a verified domain of this tenant: add it with POST /v1/tenants/${tenantId}/domains, publish its TXT record and verify it first`,
    );
  }
}
