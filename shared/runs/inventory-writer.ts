/**
 * Writes what one run step observed into the connection's inventory, and only what changed:
 * each page's entities and relationships are looked up in one batch read; an entity whose
 * content digest is unchanged, or a relationship that exists, is not written again. So a second
 * run over an unchanged provider writes no inventory item at all.
 *
 * Every written item records the run and step that wrote it, so a step that is retried after a
 * crash recognises its own writes and reports them as changes again instead of losing them;
 * an item that an earlier step of the same run already reported is not reported twice.
 *
 * A relationship is written only once both its ends are known to exist: an end this step has
 * not seen (in the same page or an earlier one) may be one an earlier step saw, or a later
 * phase will list (AWS lists users with their managed policies before the policies), or one the
 * provider never lists at all. Such a relationship is held back, saved with the step's
 * checkpoint, and linked or refused when the sweep begins (edge-linking.ts).
 */
import type { Deps } from '../deps';
import type { EntityRef, ObservedEntity, ObservedRelationship } from '../connectors/discovery';
import { keys } from '../store/keys';
import type { AttributeChange, ChangeEntry, InventoryEntityRecord, InventoryRelationshipRecord } from '../store/records';
import type { BatchCallScheduler, StoredItem } from '../store/table-client';
import { FairSlots } from './fair-slots';
import { contentDigestOf, entityIdOf, seenKeyOfEntity, seenKeyOfRelationship } from './inventory-ids';
import { nameInitialOf, nameSearchAttributes, sourceSearchItem } from './entity-search';
import { attributeChangesOf } from './attribute-changes';

/** A relationship held back for the linking stage: kind, from (kind, source id), to (kind, source id), track. */
export type HeldEdge = [kind: ObservedRelationship['kind'], fromKind: EntityRef['kind'], fromSourceId: string, toKind: EntityRef['kind'], toSourceId: string, track: string];

export interface InventoryScope {
  tenantId: string;
  workspaceId: string;
  connectionId: string;
}

/** Table calls a step's writers have in flight at once, shared out among its tracks in turn. */
const STEP_TABLE_SLOTS = 8;

/** What one step has written and seen so far; committed with the step's checkpoint. */
export class StepObservations {
  /** kind → track → seen digests (entities and relationships alike). */
  readonly seen = new Map<string, Map<string, string[]>>();
  readonly changes: ChangeEntry[] = [];
  /** Relationships with an end this step did not see: saved with the checkpoint, linked at the sweep. */
  readonly held: HeldEdge[] = [];
  itemsWritten = 0;
  /** kind → the initials of the names this step saw (the name index's roster: entity-search.ts). */
  readonly nameInitials = new Map<string, Set<number>>();
  /** Ids (and relationship digests) this step has already handled: a second sighting is free. */
  private readonly handled = new Set<string>();
  /** Writes in flight per entity id: a later sighting in the same step waits for the earlier one. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly tableSlots = new FairSlots(STEP_TABLE_SLOTS);

  constructor(
    readonly scope: InventoryScope,
    readonly runId: string,
    readonly step: number,
    readonly nowIso: string,
  ) {}

  /** How `track`'s table calls take their turn among the step's other tracks. */
  scheduleFor(track: string): BatchCallScheduler {
    return (call) => this.tableSlots.run(track, call);
  }

  claim(key: string): boolean {
    if (this.handled.has(key)) return false;
    this.handled.add(key);
    return true;
  }

  has(key: string): boolean {
    return this.handled.has(key);
  }

  /** Whether this step has seen the entity, as its own track's or as a reference. */
  sawEntity(entityId: string): boolean {
    return this.handled.has(`own:${entityId}`) || this.handled.has(`ref:${entityId}`);
  }

  hold(edge: HeldEdge): void {
    this.seenCount += 1;
    this.held.push(edge);
  }

  /**
   * Runs `write` once the earlier writes of these entities in this step have landed, so the
   * later sighting reads what the earlier one wrote (an entity's own track after a reference
   * to it, in parallel tracks, then updates it instead of racing it).
   */
  async serialized(entityIds: readonly string[], write: () => Promise<void>): Promise<void> {
    const earlier = entityIds.map((id) => this.inFlight.get(id)).filter((p): p is Promise<void> => p !== undefined);
    const done = Promise.allSettled(earlier).then(write);
    const settled: Promise<void> = done.then(
      () => forget(),
      () => forget(),
    );
    // Only writes still in flight are remembered: the map stays as small as the step's concurrency.
    const forget = () => {
      for (const id of entityIds) if (this.inFlight.get(id) === settled) this.inFlight.delete(id);
    };
    for (const id of entityIds) this.inFlight.set(id, settled);
    await done;
  }

  /** Digests recorded so far: what the step holds in memory until it checkpoints. */
  seenCount = 0;

  noteInitial(kind: string, initial: number): void {
    let initials = this.nameInitials.get(kind);
    if (!initials) this.nameInitials.set(kind, (initials = new Set()));
    initials.add(initial);
  }

  markSeen(kind: string, track: string, seenKey: string): void {
    this.seenCount += 1;
    let byTrack = this.seen.get(kind);
    if (!byTrack) this.seen.set(kind, (byTrack = new Map<string, string[]>()));
    let list = byTrack.get(track);
    if (!list) byTrack.set(track, (list = []));
    list.push(seenKey);
  }
}

interface PreparedEntity {
  record: InventoryEntityRecord;
  key: ReturnType<typeof keys.inventoryEntity>;
}

interface PreparedRelationship {
  record: InventoryRelationshipRecord;
  key: ReturnType<typeof keys.inventoryRelationship>;
}

const ENTITY_LOOKUP = ['SK', 'digest', 'written_run', 'written_step', 'written_change', 'written_attribute_changes', 'first_seen_at', 'changed_at', 'searchable', 'GSI1PK'];
/** The earlier content of an entity whose digest differs: read only for those, to say what changed. */
const ENTITY_CONTENT = ['SK', 'display_name', 'attributes'];
const RELATIONSHIP_LOOKUP = ['SK', 'written_run', 'written_step'];

/** Applies one page of observations of `readingTrack` to the inventory. */
export async function writeObservations(
  deps: Deps,
  step: StepObservations,
  page: { entities: ObservedEntity[]; relationships: ObservedRelationship[] },
  readingTrack: string,
): Promise<void> {
  const { tenantId, workspaceId, connectionId } = step.scope;
  const idOf = (ref: EntityRef) => entityIdOf(connectionId, ref.kind, ref.source_id);

  const entities: (PreparedEntity & { reference: boolean })[] = [];
  for (const observed of page.entities) {
    const entityId = idOf(observed);
    const track = observed.track ?? readingTrack;
    // Seen by another track than its own (a group's member, a role assignment's principal): it
    // may say less than its own track does, so it only makes sure the entity exists; its own
    // track's sighting, even later in the same step, is still written.
    const reference = track !== readingTrack;
    const firstSighting = !step.has(`own:${entityId}`) && !step.has(`ref:${entityId}`);
    if (reference ? step.has(`own:${entityId}`) || !step.claim(`ref:${entityId}`) : !step.claim(`own:${entityId}`)) continue;
    if (firstSighting) step.markSeen(observed.kind, track, seenKeyOfEntity(entityId));
    const record: InventoryEntityRecord = {
      entity_id: entityId,
      kind: observed.kind,
      source_id: observed.source_id,
      display_name: observed.display_name,
      attributes: observed.attributes,
      track,
      digest: contentDigestOf(observed),
      first_seen_at: step.nowIso,
      changed_at: step.nowIso,
      written_run: step.runId,
      written_step: step.step,
      written_change: 'added',
    };
    entities.push({ record, reference, key: keys.inventoryEntity(tenantId, workspaceId, connectionId, observed.kind, entityId) });
  }

  const relationships = prepareRelationships(step, page.relationships, readingTrack, 'hold unseen ends');
  if (entities.length === 0 && relationships.length === 0) return;
  await step.serialized(
    entities.map((e) => e.record.entity_id),
    () => writePrepared(deps, step, entities, relationships, step.scheduleFor(readingTrack)),
  );
}

/**
 * Writes relationships whose ends the run is known to have seen (the linking stage checked
 * them against the run's seen entities), marking them seen like any other.
 */
export async function writeLinkedRelationships(deps: Deps, step: StepObservations, linked: readonly ObservedRelationship[], track: string): Promise<void> {
  const relationships = prepareRelationships(step, linked, track, 'ends checked');
  if (relationships.length > 0) await writePrepared(deps, step, [], relationships, step.scheduleFor(track));
}

function prepareRelationships(step: StepObservations, observedList: readonly ObservedRelationship[], readingTrack: string, ends: 'hold unseen ends' | 'ends checked'): PreparedRelationship[] {
  const { tenantId, workspaceId, connectionId } = step.scope;
  const relationships: PreparedRelationship[] = [];
  for (const observed of observedList) {
    const fromId = entityIdOf(connectionId, observed.from.kind, observed.from.source_id);
    const toId = entityIdOf(connectionId, observed.to.kind, observed.to.source_id);
    const seenKey = seenKeyOfRelationship(observed.kind, fromId, toId);
    if (!step.claim(`R:${seenKey}`)) continue;
    const track = observed.track ?? readingTrack;
    if (ends === 'hold unseen ends' && !(step.sawEntity(fromId) && step.sawEntity(toId))) {
      // Neither written nor marked seen: until the linking stage finds its ends, it does not exist.
      step.hold([observed.kind, observed.from.kind, observed.from.source_id, observed.to.kind, observed.to.source_id, track]);
      continue;
    }
    step.markSeen(observed.kind, track, seenKey);
    relationships.push({
      record: {
        kind: observed.kind,
        from_entity_id: fromId,
        to_entity_id: toId,
        from_source_id: observed.from.source_id,
        to_source_id: observed.to.source_id,
        track,
        first_seen_at: step.nowIso,
        written_run: step.runId,
        written_step: step.step,
      },
      key: keys.inventoryRelationship(tenantId, workspaceId, connectionId, observed.kind, fromId, toId),
    });
  }
  return relationships;
}

async function writePrepared(
  deps: Deps,
  step: StepObservations,
  entities: (PreparedEntity & { reference: boolean })[],
  relationships: PreparedRelationship[],
  schedule: BatchCallScheduler,
): Promise<void> {
  const { tenantId, workspaceId, connectionId } = step.scope;
  const stored = new Map<string, StoredItem>();
  const [foundEntities, foundRelationships] = await Promise.all([
    entities.length ? deps.table.batchGet(entities.map((e) => e.key), { projection: ENTITY_LOOKUP, schedule }) : Promise.resolve([]),
    relationships.length ? deps.table.batchGet(relationships.map((r) => r.key), { projection: RELATIONSHIP_LOOKUP, schedule }) : Promise.resolve([]),
  ]);
  for (const item of [...foundEntities, ...foundRelationships]) stored.set(item.SK as string, item);
  const earlier = await earlierContents(deps, step, entities, stored, schedule);

  const puts: StoredItem[] = [];
  for (const { record, key, reference } of entities) {
    step.noteInitial(record.kind, nameInitialOf(record.display_name));
    const existing = stored.get(key.SK) as Partial<InventoryEntityRecord> | undefined;
    const ownRetry = existing?.written_run === step.runId && existing.written_step === step.step;
    if (reference && existing && !ownRetry) continue;
    const change = entityChange(step, record, existing, earlier.get(key.SK));
    if (change.report === 'changed' && change.attributeChanges?.length) step.changes.push(['changed', record.kind, record.entity_id, record.source_id, change.attributeChanges]);
    else if (change.report) step.changes.push([change.report, record.kind, record.entity_id, record.source_id]);
    // An entity stored before it had search entries gets them when its own track sees it
    // again, content and history unchanged; after that, only new entities write a second item.
    // One without a name had none in the name index before the list in name order (which reads
    // it) gave it one.
    const unsearchable = existing !== undefined && (existing.searchable !== true || (existing as { GSI1PK?: string }).GSI1PK === undefined);
    const write = change.write ?? (unsearchable && !reference ? healedEntity(record, existing) : undefined);
    if (write) puts.push({ ...key, ...write, ...nameSearchAttributes(step.scope, write), searchable: true });
    if (write && (!existing || unsearchable)) puts.push(sourceSearchItem(step.scope, record));
  }
  for (const { record, key } of relationships) {
    const existing = stored.get(key.SK) as Partial<InventoryRelationshipRecord> | undefined;
    const ownRetry = existing?.written_run === step.runId && existing.written_step === step.step;
    if (existing && !ownRetry) continue;
    step.changes.push(['added', record.kind, record.from_entity_id, record.from_source_id, record.to_entity_id, record.to_source_id]);
    if (!existing) {
      const reverse = keys.inventoryRelationshipTo(tenantId, workspaceId, connectionId, record.kind, record.from_entity_id, record.to_entity_id);
      puts.push({ ...key, ...reverse, ...record });
    }
  }
  if (puts.length > 0) {
    await deps.table.batchWrite(puts, [], { schedule });
    step.itemsWritten += puts.length;
  }
}

/**
 * The stored content of the entities this page changes for the first time in this run (digest
 * differs, not written by this run): one more batch read, and none on a page without changes.
 */
async function earlierContents(
  deps: Deps,
  step: StepObservations,
  entities: readonly (PreparedEntity & { reference: boolean })[],
  stored: ReadonlyMap<string, StoredItem>,
  schedule: BatchCallScheduler,
): Promise<Map<string, Partial<InventoryEntityRecord>>> {
  const changed = entities.filter(({ record, key, reference }) => {
    const existing = stored.get(key.SK) as Partial<InventoryEntityRecord> | undefined;
    return !reference && existing !== undefined && existing.digest !== record.digest && existing.written_run !== step.runId;
  });
  if (changed.length === 0) return new Map();
  const found = await deps.table.batchGet(changed.map((e) => e.key), { projection: ENTITY_CONTENT, schedule });
  return new Map(found.map((item) => [item.SK as string, item as Partial<InventoryEntityRecord>]));
}

/** The stored entity as it is (same content), with its run history kept: only its search entries are added. */
function healedEntity(observed: InventoryEntityRecord, existing: Partial<InventoryEntityRecord>): InventoryEntityRecord {
  return {
    ...observed,
    first_seen_at: existing.first_seen_at ?? observed.first_seen_at,
    changed_at: existing.changed_at ?? observed.changed_at,
    written_run: existing.written_run ?? observed.written_run,
    written_step: existing.written_step ?? observed.written_step,
    written_change: existing.written_change ?? observed.written_change,
  };
}

/**
 * What to write and report for one observed entity, given what the table holds:
 * new → write, `added`; same content → nothing (unless this very step wrote it before a crash:
 * report again); other content → write, `changed` (reported once per run).
 */
function entityChange(
  step: StepObservations,
  observed: InventoryEntityRecord,
  existing: Partial<InventoryEntityRecord> | undefined,
  earlier: Partial<InventoryEntityRecord> | undefined,
): { write?: InventoryEntityRecord; report?: 'added' | 'changed'; attributeChanges?: AttributeChange[] } {
  if (!existing) return { write: observed, report: 'added' };
  const writtenThisRun = existing.written_run === step.runId;
  const ownRetry = writtenThisRun && existing.written_step === step.step;
  // A retried step reports what its first attempt found changed: the earlier content is gone by now.
  const reported = existing.written_attribute_changes ? { attributeChanges: existing.written_attribute_changes } : {};
  if (existing.digest === observed.digest) return ownRetry ? { report: existing.written_change ?? 'added', ...reported } : {};
  const kept = { first_seen_at: existing.first_seen_at ?? observed.first_seen_at };
  if (ownRetry) {
    const change = existing.written_change ?? 'added';
    const attributes = existing.written_attribute_changes ? { written_attribute_changes: existing.written_attribute_changes } : {};
    return { write: { ...observed, ...kept, written_change: change, ...attributes }, report: change, ...reported };
  }
  if (writtenThisRun) {
    // Already reported by an earlier step of this run: take the newer content, report nothing new.
    return {
      write: { ...observed, ...kept, changed_at: existing.changed_at ?? observed.changed_at, written_step: existing.written_step ?? step.step, written_change: existing.written_change ?? 'changed' },
    };
  }
  const attributeChanges = earlier ? attributeChangesOf(earlier, observed) : [];
  const attributes = attributeChanges.length > 0 ? { written_attribute_changes: attributeChanges } : {};
  return { write: { ...observed, ...kept, written_change: 'changed', ...attributes }, report: 'changed', attributeChanges };
}
