/**
 * Access history: what a run's relationship changes did to who can reach what. Each change of
 * a path (account → entitlement → resource) becomes one "gained" or "lost" item per person and
 * target, naming the hop next to the target (`via`):
 * - an account gained or lost an entitlement: its people gain or lose the entitlement (via the
 *   account) and every resource it grants (via the entitlement);
 * - an entitlement gained or lost a resource: the people of every account holding it gain or
 *   lose the resource (via the entitlement);
 * - a Principal gained or lost an account: its person gains or loses what the account holds.
 * Ends this run removed are resolved from the run's own removals (the inventory no longer has
 * them). The work grows with the run's changes, not with the inventory. Items are keyed by
 * (time, run, person, target, change, via), so a retried finalize writes the same items again.
 */
import { createHash } from 'node:crypto';
import type { Deps } from '../deps';
import { keys } from '../store/keys';
import type { ChangeEntry } from '../store/records';
import type { StoredItem } from '../store/table-client';
import type { InventoryScope } from '../runs/inventory-writer';
import { incoming, outgoing, refsOf, type EntityRef, type Neighbour } from './inventory-adjacency';
import { personIdOf, personKey, type PersonRecord } from './people-records';

/** At least 400 days (API.md): an annual access review reaches back a year. */
export const ACCESS_HISTORY_TTL_SECONDS = 401 * 86_400;
const FLUSH_AT = 500;

export interface AccessChangeRecord {
  at: string;
  run_id: string;
  connection_id: string;
  change: 'gained' | 'lost';
  person: { person_id: string; display_name: string };
  target: EntityRef;
  via: EntityRef;
}

/** What the run removed that the history must still resolve: account → its Principals, entitlement → its resources. */
export interface RunRemovals {
  principalsOfAccount: Map<string, Neighbour[]>;
  resourcesOfEntitlement: Map<string, Neighbour[]>;
}

export function collectRemovals(removals: RunRemovals, entries: readonly ChangeEntry[]): void {
  for (const entry of entries) {
    if (entry.length !== 6 || entry[0] !== 'removed') continue;
    const [, kind, from, fromSource, to, toSource] = entry;
    const add = (map: Map<string, Neighbour[]>, key: string, value: Neighbour) => map.set(key, [...(map.get(key) ?? []), value]);
    if (kind === 'principal_represents_account') add(removals.principalsOfAccount, to, { entity_id: from, source_id: fromSource });
    else if (kind === 'entitlement_grants_resource') add(removals.resourcesOfEntitlement, from, { entity_id: to, source_id: toSource });
  }
}

interface PathChange {
  change: 'gained' | 'lost';
  principal: Neighbour;
  target: { entity_id: string; kind: string; source_id: string };
  via: { entity_id: string; kind: string; source_id: string };
}

/** Turns one part of the run's changes into access-change items and writes them. */
export async function recordAccessChanges(deps: Deps, scope: InventoryScope, runId: string, at: string, entries: readonly ChangeEntry[], removals: RunRemovals): Promise<number> {
  const pending: PathChange[] = [];
  let written = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    written += await writeChanges(deps, scope, runId, at, pending.splice(0));
  };
  const principalsOf = async (accountId: string, removed: boolean) => {
    const current = await incoming(deps, scope, 'principal_represents_account', accountId);
    return removed ? [...current, ...(removals.principalsOfAccount.get(accountId) ?? [])] : current;
  };
  const resourcesOf = async (entitlementId: string, removed: boolean) => {
    const current = await outgoing(deps, scope, 'entitlement_grants_resource', entitlementId);
    return removed ? [...current, ...(removals.resourcesOfEntitlement.get(entitlementId) ?? [])] : current;
  };
  const holdingsChanged = async (change: 'gained' | 'lost', principals: Neighbour[], account: Neighbour, entitlement: Neighbour) => {
    if (principals.length === 0) return;
    const resources = await resourcesOf(entitlement.entity_id, change === 'lost');
    for (const principal of principals) {
      pending.push({ change, principal, target: { ...entitlement, kind: 'Entitlement' }, via: { ...account, kind: 'Account' } });
      for (const resource of resources) pending.push({ change, principal, target: { ...resource, kind: 'Resource' }, via: { ...entitlement, kind: 'Entitlement' } });
    }
  };

  for (const entry of entries) {
    if (entry.length !== 6) continue;
    const [what, kind, from, fromSource, to, toSource] = entry;
    const change = what === 'added' ? 'gained' : 'lost';
    const fromRef = { entity_id: from, source_id: fromSource };
    const toRef = { entity_id: to, source_id: toSource };
    if (kind === 'account_assigned_entitlement') {
      await holdingsChanged(change, await principalsOf(from, change === 'lost'), fromRef, toRef);
    } else if (kind === 'principal_represents_account') {
      for (const entitlement of await outgoing(deps, scope, 'account_assigned_entitlement', to)) await holdingsChanged(change, [fromRef], toRef, entitlement);
    } else if (kind === 'entitlement_grants_resource') {
      for (const account of await incoming(deps, scope, 'account_assigned_entitlement', from)) {
        for (const principal of await principalsOf(account.entity_id, false)) {
          pending.push({ change, principal, target: { ...toRef, kind: 'Resource' }, via: { ...fromRef, kind: 'Entitlement' } });
        }
        if (pending.length >= FLUSH_AT) await flush();
      }
    }
    if (pending.length >= FLUSH_AT) await flush();
  }
  await flush();
  return written;
}

const digestOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 22);

async function writeChanges(deps: Deps, scope: InventoryScope, runId: string, at: string, changes: PathChange[]): Promise<number> {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const personIds = new Map(changes.map((p) => [p.principal.entity_id, personIdOf(scope, c, p.principal.entity_id, p.principal.source_id)]));
  const people = new Map<string, PersonRecord>();
  const unique = [...new Set(personIds.values())];
  for (const item of await deps.table.batchGet(unique.map((id) => personKey(scope, id)), { projection: ['person_id', 'display_name'] })) people.set(item.person_id as string, item as unknown as PersonRecord);
  const refs = await refsOf(deps, scope, changes.flatMap((p) => [p.target, p.via]));
  const ttl = Math.floor(Date.parse(at) / 1000) + ACCESS_HISTORY_TTL_SECONDS;
  const items = new Map<string, StoredItem>();
  for (const p of changes) {
    const personId = personIds.get(p.principal.entity_id)!;
    const digest = digestOf(personId, p.target.entity_id, p.change, p.via.entity_id);
    const record: AccessChangeRecord = {
      at,
      run_id: runId,
      connection_id: c,
      change: p.change,
      person: { person_id: personId, display_name: people.get(personId)?.display_name ?? p.principal.source_id },
      target: refs.get(p.target.entity_id)!,
      via: refs.get(p.via.entity_id)!,
    };
    const workspaceKey = keys.accessChange(t, w, at, runId, digest);
    items.set(workspaceKey.SK, { ...workspaceKey, ...record, ttl });
    const personItem = keys.personAccessChange(t, w, personId, at, runId, digest);
    items.set(`${personItem.PK} ${personItem.SK}`, { ...personItem, ...record, ttl });
  }
  await deps.table.batchWrite([...items.values()]);
  return items.size / 2;
}
