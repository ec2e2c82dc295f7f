/**
 * Keeps the workspace's people from one part of a run's change list: a Principal added,
 * changed or removed, and accounts linked to or unlinked from a Principal. Work grows with the
 * run's changes (an unchanged run touches no person); each touched person is read and written
 * once per part, with a version condition, so that two connections finishing runs at once
 * never lose each other's member (the loser reads again and reapplies).
 */
import type { Deps } from '../deps';
import { runWithConcurrency } from '../bounded-concurrency';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { ChangeEntry, InventoryEntityRecord } from '../store/records';
import type { InventoryScope } from '../runs/inventory-writer';
import { emailKeyOfPrincipal, personIdOf, personKey, summarize, type PersonMember, type PersonRecord } from './people-records';

const PERSON_WRITES_AT_ONCE = 16;
const MAX_ATTEMPTS = 8;

interface MemberChange {
  personId: string;
  principalId: string;
  principalSourceId: string;
  /** The Principal itself: added or changed (its name and email are read), removed, or untouched. */
  principal?: 'added' | 'changed' | 'removed';
  accountsDelta: number;
}

/** Applies what one part of the run's changes says about Principals. */
export async function applyPeopleChanges(deps: Deps, scope: InventoryScope, runId: string, part: number, entries: readonly ChangeEntry[]): Promise<void> {
  const byPrincipal = new Map<string, MemberChange>();
  const touch = (principalId: string, sourceId: string) => {
    let change = byPrincipal.get(principalId);
    if (!change) byPrincipal.set(principalId, (change = { personId: personIdOf(scope, scope.connectionId, principalId, sourceId), principalId, principalSourceId: sourceId, accountsDelta: 0 }));
    return change;
  };
  for (const entry of entries) {
    if (entry.length === 4 && entry[1] === 'Principal') touch(entry[2], entry[3]).principal = entry[0];
    else if (entry.length === 6 && entry[1] === 'principal_represents_account') touch(entry[2], entry[3]).accountsDelta += entry[0] === 'added' ? 1 : -1;
  }
  if (byPrincipal.size === 0) return;

  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const read = [...byPrincipal.values()].filter((m) => m.principal === 'added' || m.principal === 'changed');
  const principals = new Map<string, InventoryEntityRecord>();
  if (read.length > 0) {
    const found = await deps.table.batchGet(read.map((m) => keys.inventoryEntity(t, w, c, 'Principal', m.principalId)), { projection: ['entity_id', 'display_name', 'attributes'] });
    for (const item of found) principals.set(item.entity_id as string, item as unknown as InventoryEntityRecord);
  }
  const byPerson = new Map<string, MemberChange>();
  for (const change of byPrincipal.values()) byPerson.set(change.personId, change);
  // One batch read for the part's people; a person another run wrote meanwhile is read again alone.
  const stored = new Map<string, PersonRecord>();
  for (const item of await deps.table.batchGet([...byPerson.keys()].map((id) => personKey(scope, id)), { consistent: true })) stored.set(item.person_id as string, item as unknown as PersonRecord);
  await runWithConcurrency([...byPerson.values()], PERSON_WRITES_AT_ONCE, (change) => applyToPerson(deps, scope, runId, part, change, principals.get(change.principalId), stored.get(change.personId)));
}

async function applyToPerson(deps: Deps, scope: InventoryScope, runId: string, part: number, change: MemberChange, principal: InventoryEntityRecord | undefined, firstRead: PersonRecord | undefined): Promise<void> {
  const key = personKey(scope, change.personId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = attempt === 0 ? firstRead : await deps.table.get<PersonRecord>(key);
    const members = { ...(stored?.members ?? {}) };
    const existing = members[scope.connectionId];
    if (existing && existing.run === runId && existing.part >= part) return; // applied by an earlier attempt
    if (change.principal === 'removed') delete members[scope.connectionId];
    else {
      const email = typeof principal?.attributes?.email === 'string' ? principal.attributes.email : emailKeyOfPrincipal(change.principalSourceId);
      const next: PersonMember = {
        principal_id: change.principalId,
        principal_source_id: change.principalSourceId,
        display_name: principal?.display_name ?? existing?.display_name ?? change.principalSourceId,
        email: principal ? email : (existing?.email ?? email),
        accounts: Math.max(0, (existing?.accounts ?? 0) + change.accountsDelta),
        run: runId,
        part,
      };
      members[scope.connectionId] = next;
    }
    try {
      await writePerson(deps, scope, change.personId, stored, members);
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Another connection's run wrote this person meanwhile: read it again.
    }
  }
  throw new Error(`person ${change.personId} kept changing under this run's update`);
}

async function writePerson(deps: Deps, scope: InventoryScope, personId: string, stored: PersonRecord | undefined, members: Record<string, PersonMember>): Promise<void> {
  const { tenantId: t, workspaceId: w } = scope;
  const key = personKey(scope, personId);
  const condition = stored
    ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': stored.version } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
  const oldEmail = stored && stored.email_key && stored.email_key !== stored.name_key ? keys.personEmail(t, w, stored.email_key, personId) : undefined;
  if (Object.keys(members).length === 0) {
    if (!stored) return;
    await deps.table.delete({ Key: key, ...condition });
    if (oldEmail) await deps.table.delete({ Key: oldEmail });
    return;
  }
  const summary = summarize(members);
  const emailKey = Object.values(members).map((m) => (m.email ? m.email.toLowerCase() : null)).find((e) => e !== null) ?? null;
  const record: PersonRecord = { person_id: personId, ...summary, email_key: emailKey, members, version: (stored?.version ?? 0) + 1 };
  await deps.table.put({ Item: { ...key, ...keys.personByName(t, w, summary.name_key, personId), ...record }, ...condition });
  // The email index holds only emails that differ from the display name (GSI1 finds the rest).
  const newEmail = emailKey && emailKey !== summary.name_key ? keys.personEmail(t, w, emailKey, personId) : undefined;
  if (oldEmail && oldEmail.SK !== newEmail?.SK) await deps.table.delete({ Key: oldEmail });
  if (newEmail && newEmail.SK !== oldEmail?.SK) await deps.table.put({ Item: { ...newEmail, person_id: personId, name_key: summary.name_key } });
}
