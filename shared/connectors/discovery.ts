/**
 * The discovery half of the connector contract (beside `test`): a connector reads its provider
 * as one or more *tracks* (independent listings: Okta users, Okta groups and their members, one
 * AWS account...), one page at a time, from a cursor the run engine saves between steps. The
 * engine (shared/runs) owns everything else: the step loop, the checkpoint, the inventory, the
 * change list and the verdict.
 *
 * A cursor is small JSON (a provider's next link, a marker, a few ids), never a secret and never
 * a whole listing: it is stored in the run record and must stay well under 8 KiB.
 *
 * `readPage` never throws for anything the provider answers: throttling, refusals, bad
 * credentials and outages come back as outcomes, with remediation written by the connector.
 */
import type { RemediationItem } from './connector';

export const entityKinds = ['Principal', 'Account', 'Entitlement', 'Resource', 'CloudAccountBoundary'] as const;
export type EntityKind = (typeof entityKinds)[number];

export const relationshipKinds = ['principal_represents_account', 'account_assigned_entitlement', 'entitlement_grants_resource'] as const;
export type RelationshipKind = (typeof relationshipKinds)[number];

/**
 * The kinds of each relationship kind's ends, the same for every connector: a relationship's
 * ends are named (entity refs) from its kind without storing the kinds of its ends.
 */
export const relationshipEnds: Readonly<Record<RelationshipKind, { from: EntityKind; to: EntityKind }>> = {
  principal_represents_account: { from: 'Principal', to: 'Account' },
  account_assigned_entitlement: { from: 'Account', to: 'Entitlement' },
  entitlement_grants_resource: { from: 'Entitlement', to: 'Resource' },
};

/** Attribute values kept in the inventory: flat, JSON, and never a secret. */
export type AttributeValue = string | number | boolean | null | string[];

export interface EntityRef {
  kind: EntityKind;
  /** The provider's own identifier of the object (Okta user id, IAM ARN, Entra object id...). */
  source_id: string;
}

export interface ObservedEntity extends EntityRef {
  display_name: string;
  attributes: Record<string, AttributeValue>;
  /**
   * The track that lists this entity completely, when it is not the track that saw it (an
   * account seen as a group member belongs to the users track): the engine removes an entity
   * only after its own track has been read to the end. Default: the reading track.
   */
  track?: string;
}

export interface ObservedRelationship {
  kind: RelationshipKind;
  from: EntityRef;
  to: EntityRef;
  /** As for entities: the track that lists this relationship completely. Default: the reading track. */
  track?: string;
}

export type TrackCursor = string | number | boolean | null | TrackCursor[] | { [key: string]: TrackCursor };

export interface DiscoveryTrack {
  /** Stable across runs: `users`, `groups`, `account:123456789012`. */
  name: string;
}

/**
 * Paces requests to one provider within a run step, as the provider's rate-limit answers say:
 * `wait(bucket)` resolves when a request to that bucket may go; `observe(bucket, ...)` records
 * what the provider said about it (remaining calls, reset time). Shared by all tracks of a step.
 */
export interface ProviderPacer {
  wait(bucket: string, signal: AbortSignal): Promise<void>;
  observe(bucket: string, state: { remaining?: number; resetAtMs?: number; retryAtMs?: number }): void;
  /** Provider requests sent through the pacer in this step (for the run's stats). */
  readonly requests: number;
}

export interface DiscoveryContext {
  /** Aborted when the step must stop (its time budget, or the function's remaining time). */
  signal: AbortSignal;
  /** Overrides the provider's API base URL(s); tests point connectors at local servers. */
  endpoints?: Record<string, string>;
  pacer: ProviderPacer;
  /** Per-step memo (tokens, assumed-role sessions): reused across pages, never persisted. */
  session: Map<string, unknown>;
  /** Epoch milliseconds. */
  now(): number;
}

export type PageOutcome =
  /** One page read; `next` null when the track is complete. */
  | { kind: 'page'; entities: ObservedEntity[]; relationships: ObservedRelationship[]; next: TrackCursor | null }
  /** This track may not be read (a missing permission or role): the run is `partial`, the rest goes on. */
  | { kind: 'refused'; remediation: RemediationItem[] }
  /** Nothing can be read (credentials rejected, provider unreachable): the run is `failed`. */
  | { kind: 'failed'; remediation: RemediationItem[] }
  /** The provider asked to wait (429 or a throttling error): read the same cursor again at `retryAtMs`. */
  | { kind: 'throttled'; retryAtMs: number };

export interface Discovery<Config, Scope> {
  tracks: (scope: Scope) => DiscoveryTrack[];
  readPage(input: { configuration: Config; scope: Scope }, track: string, cursor: TrackCursor | null, context: DiscoveryContext): Promise<PageOutcome>;
}
