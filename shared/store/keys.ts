/**
 * Every key format of the table, and nothing else. No other module builds a key string.
 *
 * Tenant-owned items live under `TENANT#<tenant>`; workspace-owned items under
 * `TENANT#<tenant>#WS#<workspace>`, so a lookup made with another workspace's scope finds
 * nothing. Items found by a secret (PAT, refresh token, MFA transaction) are keyed by the
 * SHA-256 digest of that secret, never by the secret.
 */

export interface ItemKey {
  PK: string;
  SK: string;
}

export interface KeyPrefix {
  PK: string;
  SKPrefix: string;
}

const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;
const workspacePk = (tenantId: string, workspaceId: string) => `TENANT#${tenantId}#WS#${workspaceId}`;
const inventoryPk = (tenantId: string, workspaceId: string, connectionId: string) => `${workspacePk(tenantId, workspaceId)}#INV#${connectionId}`;
/** The shards of an inventory: the 32 characters an entity id (`ent_` + Crockford base32) goes on with. */
export const INVENTORY_SHARDS: readonly string[] = [...'0123456789abcdefghjkmnpqrstvwxyz'];
const shardOfEntity = (entityId: string) => entityId.charAt('ent_'.length);
const inventoryShardPk = (tenantId: string, workspaceId: string, connectionId: string, shard: string) => `${inventoryPk(tenantId, workspaceId, connectionId)}#S${shard}`;

/** The first character (code point) of a search key: its index partition ('' for an empty key: an entity without a name). */
const firstCharOf = (key: string) => (key ? String.fromCodePoint(key.codePointAt(0)!) : '');

/** Shards of the deployment-wide GSI1 indexes (due connections, active runs). */
const INDEX_SHARDS = 4;
function shardOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % INDEX_SHARDS;
}
/** Fixed-width step and part numbers, so the sort key orders them numerically. */
const pad = (n: number) => String(n).padStart(6, '0');

export const keys = {
  /** Never written: the health check reads it to prove the table answers. */
  healthProbe: (): ItemKey => ({ PK: 'HEALTH', SK: 'HEALTH' }),
  /** The published public half of a JWT signing key (deployment-wide: one small partition). */
  signingKey: (kid: string): ItemKey => ({ PK: 'SIGNING_KEYS', SK: `KID#${kid}` }),
  signingKeys: (): KeyPrefix => ({ PK: 'SIGNING_KEYS', SKPrefix: 'KID#' }),
  tenant: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'TENANT' }),
  tenantSlug: (slug: string): ItemKey => ({ PK: `SLUG#${slug}`, SK: 'SLUG' }),
  /** The routing pointer of an email domain: written only once a tenant has proven the domain (one tenant per domain). */
  emailDomain: (domain: string): ItemKey => ({ PK: `DOMAIN#${domain.toLowerCase()}`, SK: 'DOMAIN' }),
  /** A tenant's own record of a domain it added: its DNS challenge and verification status. */
  tenantDomain: (tenantId: string, domain: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `EMAIL_DOMAIN#${domain.toLowerCase()}` }),
  tenantDomains: (tenantId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: 'EMAIL_DOMAIN#' }),
  mfaPolicy: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'MFA_POLICY' }),
  /** The integrations a tenant is licensed for (absent: all). */
  tenantLicense: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'LICENSE' }),

  user: (tenantId: string, userId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `USER#${userId}` }),
  users: (tenantId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: 'USER#' }),
  userEmail: (tenantId: string, email: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `EMAIL#${email.toLowerCase()}` }),
  /** The uniqueness item of a username in its tenant (case-insensitive), pointing at the user. */
  userUsername: (tenantId: string, username: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `USERNAME#${username.toLowerCase()}` }),

  workspace: (tenantId: string, workspaceId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `WORKSPACE#${workspaceId}` }),
  workspaces: (tenantId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: 'WORKSPACE#' }),

  personalAccessToken: (tokenHash: string): ItemKey => ({ PK: `PAT#${tokenHash}`, SK: 'PAT' }),
  /** The expiry of each of a user's active PATs, in one item: what the 50-per-user limit counts. */
  personalAccessTokenRoster: (tenantId: string, userId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `PATS#${userId}` }),
  /** How many workspaces the tenant has (the 1000-per-tenant limit), moved with each creation. */
  workspaceCount: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'COUNT#WORKSPACES' }),
  /** How many connections the workspace has (the 1000-per-workspace limit), moved with each creation and deletion. */
  connectionCount: (tenantId: string, workspaceId: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: 'COUNT#CONNECTIONS' }),
  /** GSI1 keys of a PAT: the owner's listing, newest first by the time-ordered id. */
  personalAccessTokenOwner: (tenantId: string, userId: string, tokenId: string) => ({
    GSI1PK: `${tenantPk(tenantId)}#USER#${userId}#PATS`,
    GSI1SK: `PAT#${tokenId}`,
  }),
  personalAccessTokensOfUser: (tenantId: string, userId: string): { GSI1PK: string; GSI1SKPrefix: string } => ({
    GSI1PK: `${tenantPk(tenantId)}#USER#${userId}#PATS`,
    GSI1SKPrefix: 'PAT#',
  }),

  refreshToken: (tokenHash: string): ItemKey => ({ PK: `REFRESH#${tokenHash}`, SK: 'REFRESH' }),
  refreshFamily: (tenantId: string, userId: string, familyId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `RTFAMILY#${userId}#${familyId}` }),
  refreshFamiliesOfUser: (tenantId: string, userId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: `RTFAMILY#${userId}#` }),
  refreshFamiliesOfTenant: (tenantId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: 'RTFAMILY#' }),

  mfaTransaction: (tokenHash: string): ItemKey => ({ PK: `MFATX#${tokenHash}`, SK: 'MFATX' }),
  passwordResetToken: (tokenHash: string): ItemKey => ({ PK: `RESET#${tokenHash}`, SK: 'RESET' }),
  totpCredential: (tenantId: string, userId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `MFA#${userId}#TOTP` }),
  backupCode: (tenantId: string, userId: string, codeHash: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `MFA#${userId}#BACKUP#${codeHash}` }),
  backupCodes: (tenantId: string, userId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: `MFA#${userId}#BACKUP#` }),

  /** Identity audit log of a tenant (logins, MFA, tokens, users, workspaces). */
  identityAuditEvent: (tenantId: string, eventId: string): ItemKey => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SK: `EVT#${eventId}` }),
  identityAuditEvents: (tenantId: string): KeyPrefix => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SKPrefix: 'EVT#' }),
  /** The head of the identity log's hash chain (last seq and digest), beside its events. */
  identityAuditChainHead: (tenantId: string): ItemKey => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SK: 'CHAIN#HEAD' }),
  /** Audit log of one workspace (connection changes and tests). */
  workspaceAuditEvent: (tenantId: string, workspaceId: string, eventId: string): ItemKey => ({
    PK: `${workspacePk(tenantId, workspaceId)}#AUDIT`,
    SK: `EVT#${eventId}`,
  }),
  workspaceAuditEvents: (tenantId: string, workspaceId: string): KeyPrefix => ({
    PK: `${workspacePk(tenantId, workspaceId)}#AUDIT`,
    SKPrefix: 'EVT#',
  }),
  workspaceAuditChainHead: (tenantId: string, workspaceId: string): ItemKey => ({ PK: `${workspacePk(tenantId, workspaceId)}#AUDIT`, SK: 'CHAIN#HEAD' }),

  connection: (tenantId: string, workspaceId: string, connectionId: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `CONN#${connectionId}` }),
  connections: (tenantId: string, workspaceId: string): KeyPrefix => ({ PK: workspacePk(tenantId, workspaceId), SKPrefix: 'CONN#' }),
  connectionTest: (tenantId: string, workspaceId: string, connectionId: string, testId: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `CONNTEST#${connectionId}#${testId}` }),
  connectionTests: (tenantId: string, workspaceId: string, connectionId: string): KeyPrefix => ({ PK: workspacePk(tenantId, workspaceId), SKPrefix: `CONNTEST#${connectionId}#` }),
  connectionRun: (tenantId: string, workspaceId: string, connectionId: string, runId: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `CONNRUN#${connectionId}#${runId}` }),
  connectionRuns: (tenantId: string, workspaceId: string, connectionId: string): KeyPrefix => ({ PK: workspacePk(tenantId, workspaceId), SKPrefix: `CONNRUN#${connectionId}#` }),
  /**
   * A connection's place in the due-run index (GSI1): the dispatcher reads the shards for
   * entries whose next run is due. Sharded so that no single index partition takes every
   * connection of the deployment; the shard is fixed per connection.
   */
  dueConnection: (connectionId: string, nextRunAt: string) => ({
    GSI1PK: `DUE#${shardOf(connectionId)}`,
    GSI1SK: `${nextRunAt}#${connectionId}`,
  }),
  dueConnectionShards: (): string[] => Array.from({ length: INDEX_SHARDS }, (_, shard) => `DUE#${shard}`),
  /** A run that is queued or running, in GSI1 by the time it must have shown progress by. */
  activeRun: (runId: string, expectedBy: string) => ({
    GSI1PK: `ACTIVERUN#${shardOf(runId)}`,
    GSI1SK: `${expectedBy}#${runId}`,
  }),
  activeRunShards: (): string[] => Array.from({ length: INDEX_SHARDS }, (_, shard) => `ACTIVERUN#${shard}`),

  // ---- discovery inventory ---------------------------------------------------------------
  // Each connection's inventory lives under the workspace's partition key, apart from the
  // workspace's other items: its run checkpoints and meta item in one partition, its entities
  // and relationships spread over INVENTORY_SHARDS partitions by the first character of the
  // entity id after `ent_` (uniform: ids are digests; a relationship goes with its `from` end).
  // No connection's inventory is then one hot partition key: DynamoDB serves a key's writes from
  // one place, and a query's cost grows with the size of its partition (DynamoDB Local).
  /** Every partition of a connection's inventory: its checkpoints', then each shard's. */
  inventoryPartitions: (tenantId: string, workspaceId: string, connectionId: string): KeyPrefix[] => [
    { PK: inventoryPk(tenantId, workspaceId, connectionId), SKPrefix: '' },
    ...INVENTORY_SHARDS.map((shard) => ({ PK: inventoryShardPk(tenantId, workspaceId, connectionId, shard), SKPrefix: '' })),
  ],
  inventoryEntity: (tenantId: string, workspaceId: string, connectionId: string, kind: string, entityId: string): ItemKey => ({
    PK: inventoryShardPk(tenantId, workspaceId, connectionId, shardOfEntity(entityId)),
    SK: `E#${kind}#${entityId}`,
  }),
  /** One shard's entities, optionally of one kind. */
  inventoryEntities: (tenantId: string, workspaceId: string, connectionId: string, shard: string, kind?: string): KeyPrefix => ({
    PK: inventoryShardPk(tenantId, workspaceId, connectionId, shard),
    SKPrefix: kind ? `E#${kind}#` : 'E#',
  }),
  inventoryRelationship: (tenantId: string, workspaceId: string, connectionId: string, kind: string, fromId: string, toId: string): ItemKey => ({
    PK: inventoryShardPk(tenantId, workspaceId, connectionId, shardOfEntity(fromId)),
    SK: `R#${kind}#${fromId}#${toId}`,
  }),
  /** One shard's relationships, optionally of one kind. */
  inventoryRelationships: (tenantId: string, workspaceId: string, connectionId: string, shard: string, kind?: string): KeyPrefix => ({
    PK: inventoryShardPk(tenantId, workspaceId, connectionId, shard),
    SKPrefix: kind ? `R#${kind}#` : 'R#',
  }),
  /** The relationships of one kind from one entity. */
  inventoryRelationshipsFrom: (tenantId: string, workspaceId: string, connectionId: string, kind: string, fromId: string): KeyPrefix => ({
    PK: inventoryShardPk(tenantId, workspaceId, connectionId, shardOfEntity(fromId)),
    SKPrefix: `R#${kind}#${fromId}#`,
  }),
  /** GSI1 keys of a relationship: found from its `to` end too. */
  inventoryRelationshipTo: (tenantId: string, workspaceId: string, connectionId: string, kind: string, fromId: string, toId: string) => ({
    GSI1PK: `${inventoryPk(tenantId, workspaceId, connectionId)}#TO#${toId}`,
    GSI1SK: `R#${kind}#${fromId}`,
  }),
  inventoryRelationshipsTo: (tenantId: string, workspaceId: string, connectionId: string, toId: string, kind?: string): { GSI1PK: string; GSI1SKPrefix: string } => ({
    GSI1PK: `${inventoryPk(tenantId, workspaceId, connectionId)}#TO#${toId}`,
    GSI1SKPrefix: kind ? `R#${kind}#` : 'R#',
  }),
  /**
   * GSI1 keys of an entity's name in the inventory's prefix search (`?q=`): one index partition
   * per (kind, first character of the lower-cased name), so no partition holds a whole
   * inventory, and the query for a prefix reads only entries that start with it.
   */
  inventoryEntityByName: (tenantId: string, workspaceId: string, connectionId: string, kind: string, nameKey: string, entityId: string) => ({
    GSI1PK: `${inventoryPk(tenantId, workspaceId, connectionId)}#QN#${kind}#${firstCharOf(nameKey)}`,
    GSI1SK: `${nameKey}\u0001${entityId}`,
  }),
  inventoryEntitiesByName: (tenantId: string, workspaceId: string, connectionId: string, kind: string, prefix: string): { GSI1PK: string; GSI1SKPrefix: string } => ({
    GSI1PK: `${inventoryPk(tenantId, workspaceId, connectionId)}#QN#${kind}#${firstCharOf(prefix)}`,
    GSI1SKPrefix: prefix,
  }),
  /**
   * One name-index partition whole: the entities of a kind whose name starts with `initial` ('' for
   * those without a name, whose entries start with the separator), in name order.
   */
  inventoryEntitiesByInitial: (tenantId: string, workspaceId: string, connectionId: string, kind: string, initial: string): { GSI1PK: string; GSI1SKPrefix: string } => ({
    GSI1PK: `${inventoryPk(tenantId, workspaceId, connectionId)}#QN#${kind}#${initial}`,
    GSI1SKPrefix: initial || '\u0001',
  }),
  /** Which name-index partitions each kind has (its initials): what a list in name order walks. */
  inventoryNameInitials: (tenantId: string, workspaceId: string, connectionId: string): ItemKey => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SK: 'NAME_INITIALS' }),
  /** An entity's source-id search entry, beside the entity (the entity item's own GSI1 entry is its name's). */
  inventoryEntitySourceKey: (tenantId: string, workspaceId: string, connectionId: string, kind: string, entityId: string): ItemKey => ({
    PK: inventoryShardPk(tenantId, workspaceId, connectionId, shardOfEntity(entityId)),
    SK: `S#${kind}#${entityId}`,
  }),
  /** GSI1 keys of that entry: as the name's, in partitions of their own. */
  inventoryEntityBySourceId: (tenantId: string, workspaceId: string, connectionId: string, kind: string, sourceKey: string, entityId: string) => ({
    GSI1PK: `${inventoryPk(tenantId, workspaceId, connectionId)}#QS#${kind}#${firstCharOf(sourceKey)}`,
    GSI1SK: `${sourceKey}\u0001${entityId}`,
  }),
  inventoryEntitiesBySourceId: (tenantId: string, workspaceId: string, connectionId: string, kind: string, prefix: string): { GSI1PK: string; GSI1SKPrefix: string } => ({
    GSI1PK: `${inventoryPk(tenantId, workspaceId, connectionId)}#QS#${kind}#${firstCharOf(prefix)}`,
    GSI1SKPrefix: prefix,
  }),
  /**
   * The ref of an entity a run removed (kind, source id, name), kept beside where it was, so
   * that change lists and relationship ends still name it after it is gone.
   */
  inventoryRemovedEntity: (tenantId: string, workspaceId: string, connectionId: string, kind: string, entityId: string): ItemKey => ({
    PK: inventoryShardPk(tenantId, workspaceId, connectionId, shardOfEntity(entityId)),
    SK: `G#${kind}#${entityId}`,
  }),
  /** When each (kind, track) of the inventory was last read completely. */
  inventoryMeta: (tenantId: string, workspaceId: string, connectionId: string): ItemKey => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SK: 'META' }),
  /** The checkpoint of a run's step (written last: its presence means the step's writes are done). */
  runStepHeader: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number): ItemKey => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SK: `RUN#${runId}#H#${pad(step)}`,
  }),
  /** What a step saw (digests of entity and relationship ids, by kind and track), in parts. */
  runStepSeen: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number, part: number): ItemKey => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SK: `RUN#${runId}#V#${pad(step)}#${pad(part)}`,
  }),
  runSeen: (tenantId: string, workspaceId: string, connectionId: string, runId: string): KeyPrefix => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SKPrefix: `RUN#${runId}#V#` }),
  /** The changes a step found, in parts, in step order: the run's change list. */
  runStepChanges: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number, part: number): ItemKey => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SK: `RUN#${runId}#C#${pad(step)}#${pad(part)}`,
  }),
  /** The change parts one step wrote (a retried step merges with them). */
  runStepChangeParts: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number): KeyPrefix => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SKPrefix: `RUN#${runId}#C#${pad(step)}#`,
  }),
  runChanges: (tenantId: string, workspaceId: string, connectionId: string, runId: string): KeyPrefix => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SKPrefix: `RUN#${runId}#C#` }),
  /** Entities a sweep step removed (their digests): the relationship sweep drops what pointed at them. */
  runStepRemoved: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number, part: number): ItemKey => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SK: `RUN#${runId}#X#${pad(step)}#${pad(part)}`,
  }),
  runStepRemovedParts: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number): KeyPrefix => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SKPrefix: `RUN#${runId}#X#${pad(step)}#`,
  }),
  runRemoved: (tenantId: string, workspaceId: string, connectionId: string, runId: string): KeyPrefix => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SKPrefix: `RUN#${runId}#X#` }),
  /** The access graph's record of a run (the time it applied the run's changes at, and whether it was the baseline). */
  runAccessGraph: (tenantId: string, workspaceId: string, connectionId: string, runId: string): ItemKey => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SK: `RUN#${runId}#G` }),
  /** Relationships a reading step held back because it had not seen one of their ends (run-checkpoint.ts). */
  runStepHeldEdges: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number, part: number): ItemKey => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SK: `RUN#${runId}#L#${pad(step)}#${pad(part)}`,
  }),
  runStepHeldEdgeParts: (tenantId: string, workspaceId: string, connectionId: string, runId: string, step: number): KeyPrefix => ({
    PK: inventoryPk(tenantId, workspaceId, connectionId),
    SKPrefix: `RUN#${runId}#L#${pad(step)}#`,
  }),
  runHeldEdges: (tenantId: string, workspaceId: string, connectionId: string, runId: string): KeyPrefix => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SKPrefix: `RUN#${runId}#L#` }),
  /** Items of a run's checkpoints (headers, seen digests, changes), for cleanup. */
  runCheckpoints: (tenantId: string, workspaceId: string, connectionId: string, runId: string): KeyPrefix => ({ PK: inventoryPk(tenantId, workspaceId, connectionId), SKPrefix: `RUN#${runId}#` }),

  // ---- access graph: people and access history ------------------------------------------
  // Derived from the inventories of all connections of a workspace at the end of each run
  // (shared/access). People live in one partition per workspace, found by id (main index) or
  // by search key (GSI1); access history in one timeline per workspace and one per person.
  /** A person: the workspace's Principals that share one lower-cased email (or one Principal without). */
  person: (tenantId: string, workspaceId: string, personId: string): ItemKey => ({ PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE`, SK: `PER#${personId}` }),
  /** The workspace's people (main index), for a sweep over all of them. */
  people: (tenantId: string, workspaceId: string): KeyPrefix => ({ PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE`, SKPrefix: 'PER#' }),
  /**
   * GSI1 keys of a person item: its lower-cased display name, then its id. One range of this
   * index is the list in display-name order, and a search by name prefix in that order.
   */
  personByName: (tenantId: string, workspaceId: string, nameKey: string, personId: string) => ({
    GSI1PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE#BYNAME`,
    GSI1SK: `${nameKey}\u0001${personId}`,
  }),
  peopleByName: (tenantId: string, workspaceId: string): { GSI1PK: string } => ({ GSI1PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE#BYNAME` }),
  /** A person's email entry, written only where the email differs from the display name (whose entry is the person item). */
  personEmail: (tenantId: string, workspaceId: string, emailKey: string, personId: string): ItemKey => ({ PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE`, SK: `EMAIL#${emailKey}\u0001${personId}` }),
  /**
   * GSI1 keys of an email entry: the index partition of the email's first character, ordered by
   * the person's display name like `personByName`, so that a search by email prefix comes in
   * display-name order too and merges with the name matches as it is read.
   */
  personByEmail: (tenantId: string, workspaceId: string, emailKey: string, nameKey: string, personId: string) => ({
    GSI1PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE#BYEMAIL#${firstCharOf(emailKey)}`,
    GSI1SK: `${nameKey}\u0001${personId}`,
  }),
  /** The index partition whose email entries may start with `prefix`. */
  peopleByEmail: (tenantId: string, workspaceId: string, prefix: string): { GSI1PK: string } => ({ GSI1PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE#BYEMAIL#${firstCharOf(prefix)}` }),
  /** Held by whoever rewrites people (a run's last step, a connection's purge): their writes are then plain batch writes. */
  peopleLease: (tenantId: string, workspaceId: string): ItemKey => ({ PK: `${workspacePk(tenantId, workspaceId)}#PEOPLE`, SK: 'LEASE' }),
  /** One access change (gained or lost) in the workspace's timeline, newest last by sort key (`at` first). */
  accessChange: (tenantId: string, workspaceId: string, at: string, runId: string, digest: string): ItemKey => ({ PK: `${workspacePk(tenantId, workspaceId)}#ACCESSCHG`, SK: `${at}#${runId}#${digest}` }),
  accessChanges: (tenantId: string, workspaceId: string): { PK: string } => ({ PK: `${workspacePk(tenantId, workspaceId)}#ACCESSCHG` }),
  /** The same change in its person's timeline. */
  personAccessChange: (tenantId: string, workspaceId: string, personId: string, at: string, runId: string, digest: string): ItemKey => ({
    PK: `${workspacePk(tenantId, workspaceId)}#ACCESSCHG#${personId}`,
    SK: `${at}#${runId}#${digest}`,
  }),
  personAccessChanges: (tenantId: string, workspaceId: string, personId: string): { PK: string } => ({ PK: `${workspacePk(tenantId, workspaceId)}#ACCESSCHG#${personId}` }),

  /** An export job of a workspace and where its file is (shared/exports/export-records.ts); it expires with the file. */
  export: (tenantId: string, workspaceId: string, exportId: string): ItemKey => ({ PK: `${workspacePk(tenantId, workspaceId)}#EXPORTS`, SK: `EXP#${exportId}` }),

  /** Idempotency-Key records of POST requests: per workspace and caller, the key digested. */
  idempotencyRecord: (tenantId: string, workspaceId: string, userId: string, keyDigest: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `IDEMP#${userId}#${keyDigest}` }),

  /** A fixed-window counter: `subject` is already a digest or an id, never raw user input. */
  rateCounter: (limiter: string, subject: string, windowIndex: number): ItemKey => ({
    PK: `RATE#${limiter}#${subject}`,
    SK: `W#${windowIndex}`,
  }),

  // ---- tenant SSO ----------------------------------------------------------------------
  /** The tenant's one IdP configuration (OIDC and/or SAML settings, one of them active). */
  idpConfig: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'IDP_CONFIG' }),
  /** A federated identity: `identityDigest` is a digest of (issuer, subject), never raw IdP input. */
  externalIdentity: (tenantId: string, identityDigest: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `EXTID#${identityDigest}` }),
  /** Every federated identity of a tenant (ordered by digest, not by time). */
  externalIdentities: (tenantId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: 'EXTID#' }),
  /** A login in flight between /start and /callback, keyed by the digest of its `state` / RelayState. */
  ssoTransaction: (stateHash: string): ItemKey => ({ PK: `SSOTX#${stateHash}`, SK: 'SSOTX' }),
  /** The single-use code the callback hands to the client, keyed by its digest. */
  ssoCode: (codeHash: string): ItemKey => ({ PK: `SSOCODE#${codeHash}`, SK: 'SSOCODE' }),
  /** SAML assertion ids already accepted (replay cache, until NotOnOrAfter + skew). */
  samlAssertionUse: (tenantId: string, assertionDigest: string): ItemKey => ({ PK: `${tenantPk(tenantId)}#SAMLA#${assertionDigest}`, SK: 'SAMLA' }),
} as const;
