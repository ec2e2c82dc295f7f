/**
 * A thin typed wrapper over DynamoDB's item calls (`item-calls.ts`) for the one table: reads,
 * scoped queries with cursors, and transactions. Repositories use it; nothing else talks to
 * DynamoDB.
 *
 * Cursors are bound to the partition they were issued for: a cursor presented with another
 * scope (another workspace, another user) is refused rather than followed.
 */
import type { BatchWriteCommandInput, DeleteCommandInput, PutCommandInput, TransactWriteCommandInput, UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { runWithConcurrency } from '../bounded-concurrency';
import { ValidationError } from '../errors';
import type { ItemKey, KeyPrefix } from './keys';
import type { ItemCalls } from './item-calls';
import { tableDefinition, type GsiName } from './table';

/** Above every character DynamoDB orders (UTF-8 byte order): `prefix + PREFIX_END` ends a prefix's range of sort keys. */
export const PREFIX_END = '\u{10FFFF}';

/**
 * A sort-key prefix as a range, `BETWEEN :prefix AND :prefixEnd`, rather than begins_with: the
 * same items at the same cost on DynamoDB, but DynamoDB Local answers begins_with by reading the
 * whole partition (measured: 11 ms against 2.5 ms for one item's range in a 20,000-item
 * partition, 3 ms against 2.5 in a 2,000-item one), so every read over a large inventory was
 * slow in local mode and in the bench.
 */
const PREFIX_CONDITION = '#pk = :pk AND #sk BETWEEN :prefix AND :prefixEnd';
const prefixValues = (prefix: string) => ({ ':prefix': prefix, ':prefixEnd': `${prefix}${PREFIX_END}` });

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type StoredItem = Record<string, unknown>;

/** The last link of a hash-chained log: its sequence number and digest (kept in the chain's head item). */
export interface ChainLink {
  seq: number;
  digest: string;
}

/**
 * An item appended to a hash-chained log (an audit log). The chain's head item holds the last
 * link; `link` turns the previous link (null for the first item) into the attributes that join
 * the item to the chain (its own `seq` and `digest` among them).
 */
export interface ChainedAppend {
  head: ItemKey;
  link(previous: ChainLink | null): StoredItem & ChainLink;
  /**
   * The head as the caller already read it with its other reads (null: the chain is empty), to
   * save the transaction its own read. Only a first attempt uses it: if the head has moved
   * since, the transaction loses the race like any other and links again on a fresh read.
   */
  knownHead?: ChainLink | null;
  /**
   * Called once the transaction has committed, with the head it left on this chain (the link
   * of the chain's last item in it): the writer's chance to record the head elsewhere. It is
   * awaited; what it throws reaches the caller of `transact` after the commit.
   */
  committed?: (head: ChainLink) => Promise<void>;
}

/** The chain link a head item holds (null when there is no head yet: the chain is empty). */
export function chainLinkOf(head: StoredItem | undefined): ChainLink | null {
  return head ? { seq: head.seq as number, digest: head.digest as string } : null;
}

/**
 * A transaction that appends to a chain reads the chain's head, links its items and moves the
 * head with a condition on the link it read, all in the one transaction; a parallel append that
 * moved the head first cancels it, and it is linked again on the new head, this many times.
 */
const CHAIN_APPEND_ATTEMPTS = 100;
export const cancellationCodes = (error: unknown): (string | undefined)[] | undefined =>
  error instanceof Error && error.name === 'TransactionCanceledException'
    ? ((error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code)
    : undefined;
const isLostRace = (code: string | undefined) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict';
/** An item that did not fail, or only met a parallel transaction on it (nothing was written: try again). */
const isPassedOrConflict = (code: string | undefined) => code === undefined || code === 'None' || code === 'TransactionConflict';

/** A raw page of a query, for internal readers that keep the position themselves (never sent to a client). */
export interface RawPage {
  items: StoredItem[];
  lastKey: Record<string, unknown> | undefined;
}

/** DynamoDB's limits per batch call. */
const BATCH_GET_MAX = 100;
const BATCH_WRITE_MAX = 25;
/** Unprocessed items (throttling) are sent again after a growing pause, this many times. */
const BATCH_RETRIES = 8;
/**
 * Batch calls of one batchGet/batchWrite in flight at once: a call's latency, not the table's
 * throughput, is what limits one caller sending them one after another.
 */
const BATCH_CONCURRENCY = 4;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs each of a batch operation's calls; a caller that shares the table among several
 * producers passes its own (a slot in its turn), the default runs the call at once.
 */
export type BatchCallScheduler = <T>(call: () => Promise<T>) => Promise<T>;
const immediately: BatchCallScheduler = (call) => call();

/** Runs `send` over `count` chunk indexes, at most BATCH_CONCURRENCY at a time, each in its scheduled turn. */
function eachChunk(count: number, send: (index: number) => Promise<void>, schedule: BatchCallScheduler): Promise<void> {
  return runWithConcurrency(Array.from({ length: count }, (_, index) => index), BATCH_CONCURRENCY, (index) => schedule(() => send(index)));
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const KEY_ATTRIBUTES = new Set<string>([
  tableDefinition.partitionKey,
  tableDefinition.sortKey,
  tableDefinition.ttlAttribute,
  ...tableDefinition.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey]),
]);

/** The stored attributes of an item without the key and bookkeeping attributes. */
export function withoutKeys<T>(item: StoredItem): T {
  const out: StoredItem = {};
  for (const [name, value] of Object.entries(item)) if (!KEY_ATTRIBUTES.has(name)) out[name] = value;
  return out as T;
}

function encodeCursor(lastKey: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, partitionAttribute: string, expectedPartition: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  // An array never holds the partition attribute, so it is refused by that test too.
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    (parsed as StoredItem)[partitionAttribute] === expectedPartition &&
    Object.values(parsed).every((v) => typeof v === 'string');
  if (!valid) throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
  return parsed as Record<string, unknown>;
}

/**
 * One item by key and what it is to the domain: its record, or the domain's error when it is
 * missing. The key and its meaning travel together so that a layer above may fetch the item
 * another way (in one round trip with others) and still hand it to the same `found`.
 */
export interface ItemRead<T> {
  key: ItemKey;
  /** The stored item without its keys (undefined when missing) as the domain's record. */
  found(item: StoredItem | undefined): T;
}

export const sameKey = (a: ItemKey, b: ItemKey): boolean => a.PK === b.PK && a.SK === b.SK;

const itemId = (key: ItemKey) => `${key.PK}\u0000${key.SK}`;

/**
 * What `getItems` found, looked up by the keys asked for: undefined means there is no such item.
 * A key that was not asked for throws, so a miss is never taken for an absence.
 */
export class ItemsByKey {
  private readonly asked: Set<string>;
  private readonly found = new Map<string, StoredItem>();

  constructor(asked: ItemKey[], items: StoredItem[]) {
    this.asked = new Set(asked.map(itemId));
    for (const item of items) this.found.set(itemId(item as unknown as ItemKey), item);
  }

  get<T>(key: ItemKey): T | undefined {
    const id = itemId(key);
    if (!this.asked.has(id)) throw new Error(`${key.PK} ${key.SK} was not read`);
    const item = this.found.get(id);
    return item ? withoutKeys<T>(item) : undefined;
  }
}

export class TableClient {
  /** Items built by `chainedPutItem`, linked by `transact` when it sends them. */
  private readonly chainedAppends = new WeakMap<TransactItem, ChainedAppend>();

  constructor(
    private readonly calls: ItemCalls,
    readonly name: string,
  ) {}

  async get<T>(key: ItemKey): Promise<T | undefined> {
    const out = await this.calls.get({ TableName: this.name, Key: key, ConsistentRead: true });
    return out.Item ? withoutKeys<T>(out.Item) : undefined;
  }

  async read<T>(itemRead: ItemRead<T>): Promise<T> {
    return itemRead.found(await this.get<StoredItem>(itemRead.key));
  }

  put(input: Omit<PutCommandInput, 'TableName'>) {
    return this.calls.put({ ...input, TableName: this.name });
  }

  update(input: Omit<UpdateCommandInput, 'TableName'>) {
    return this.calls.update({ ...input, TableName: this.name });
  }

  delete(input: Omit<DeleteCommandInput, 'TableName'>) {
    return this.calls.delete({ ...input, TableName: this.name });
  }

  async transact(items: TransactItem[]): Promise<void> {
    if (!items.some((item) => this.chainedAppends.has(item))) {
      await this.calls.transactWrite({ TransactItems: items });
      return;
    }
    for (let attempt = 1; ; attempt++) {
      const { linked, heads, committed } = await this.linkChainedAppends(items, attempt === 1);
      try {
        await this.calls.transactWrite({ TransactItems: [...linked, ...heads] });
      } catch (error) {
        const codes = cancellationCodes(error);
        // Only a lost race is worth another turn: on a chain head (moved, or in a parallel
        // transaction), or on another item a parallel transaction held (a rate counter the
        // login gives back); never a condition of the caller's own that failed.
        const lostRace =
          codes !== undefined &&
          codes.some((c) => c !== undefined && c !== 'None') &&
          codes.slice(linked.length).every((c) => isPassedOrConflict(c) || isLostRace(c)) &&
          codes.slice(0, linked.length).every(isPassedOrConflict);
        if (!lostRace) throw error;
        if (attempt >= CHAIN_APPEND_ATTEMPTS) throw new Error('An audit chain stayed busy; the change was not made');
        await pause(Math.random() * Math.min(100, 5 * attempt));
        continue;
      }
      await Promise.all(committed.map((call) => call()));
      return;
    }
  }

  /** The transaction's items with chained appends linked to their chains' current heads, and the head moves. */
  private async linkChainedAppends(items: TransactItem[], firstAttempt: boolean): Promise<{ linked: TransactItem[]; heads: TransactItem[]; committed: (() => Promise<void>)[] }> {
    const last = new Map<string, { key: ItemKey; read: ChainLink | null; link: ChainLink | null; committed: ChainedAppend['committed'] }>();
    const linked: TransactItem[] = [];
    for (const item of items) {
      const append = this.chainedAppends.get(item);
      if (!append || !item.Put) {
        linked.push(item);
        continue;
      }
      const id = itemId(append.head);
      let chain = last.get(id);
      if (!chain) {
        const read = firstAttempt && append.knownHead !== undefined ? append.knownHead : chainLinkOf(await this.get<StoredItem>(append.head));
        chain = { key: append.head, read, link: read, committed: append.committed };
        last.set(id, chain);
      }
      const fields = append.link(chain.link);
      chain.link = { seq: fields.seq, digest: fields.digest };
      linked.push({ Put: { ...item.Put, Item: { ...item.Put.Item, ...fields } } });
    }
    const heads = [...last.values()].map((chain) =>
      this.putItem(
        { ...chain.key, ...chain.link },
        chain.read === null
          ? { expression: 'attribute_not_exists(PK)' }
          : { expression: '#seq = :seq AND #digest = :digest', names: { '#seq': 'seq', '#digest': 'digest' }, values: { ':seq': chain.read.seq, ':digest': chain.read.digest } },
      ),
    );
    const committed = [...last.values()].flatMap(({ committed: call, link }) => (call && link ? [() => call(link)] : []));
    return { linked, heads, committed };
  }

  /** Helpers to build transaction items against this table. */
  putItem(item: StoredItem, condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> }): TransactItem {
    return {
      Put: {
        TableName: this.name,
        Item: item,
        ...(condition ? { ConditionExpression: condition.expression } : {}),
        ...(condition?.names ? { ExpressionAttributeNames: condition.names } : {}),
        ...(condition?.values ? { ExpressionAttributeValues: condition.values } : {}),
      },
    };
  }

  /** A put that `transact` appends to a hash-chained log (see ChainedAppend): it links the item and moves the head in the same transaction. */
  chainedPutItem(item: StoredItem, append: ChainedAppend): TransactItem {
    const put = this.putItem(item, { expression: 'attribute_not_exists(PK)' });
    this.chainedAppends.set(put, append);
    return put;
  }

  updateItem(input: Omit<NonNullable<TransactItem['Update']>, 'TableName'>): TransactItem {
    return { Update: { ...input, TableName: this.name } };
  }

  deleteItem(input: Omit<NonNullable<TransactItem['Delete']>, 'TableName'>): TransactItem {
    return { Delete: { ...input, TableName: this.name } };
  }

  conditionCheck(input: Omit<NonNullable<TransactItem['ConditionCheck']>, 'TableName'>): TransactItem {
    return { ConditionCheck: { ...input, TableName: this.name } };
  }

  /**
   * A few items by key in one round trip (BatchGetItem, at most 100 keys), strongly consistent
   * like `get`: for a use case that knows several keys at once, instead of one call each. A key
   * given twice is read once; one key alone is a GetItem.
   */
  async getItems(itemKeys: ItemKey[]): Promise<ItemsByKey> {
    // BatchGetItem refuses a key asked twice.
    const unique = [...new Map(itemKeys.map((key) => [itemId(key), key])).values()];
    if (unique.length > BATCH_GET_MAX) throw new Error(`getItems reads at most ${BATCH_GET_MAX} keys`);
    if (unique.length === 1) {
      const out = await this.calls.get({ TableName: this.name, Key: unique[0], ConsistentRead: true });
      return new ItemsByKey(unique, out.Item ? [out.Item] : []);
    }
    return new ItemsByKey(unique, unique.length === 0 ? [] : await this.batchGet(unique, { consistent: true }));
  }

  /**
   * Items by key, in batches of 100, eventually consistent (half the read cost): callers use it
   * for their own earlier writes only where a stale answer is harmless. Missing keys are absent.
   */
  async batchGet(itemKeys: ItemKey[], options: { projection?: string[]; consistent?: boolean; schedule?: BatchCallScheduler } = {}): Promise<StoredItem[]> {
    const found: StoredItem[] = [];
    const names = options.projection ? Object.fromEntries(options.projection.map((n, i) => [`#p${i}`, n])) : undefined;
    await eachChunk(Math.ceil(itemKeys.length / BATCH_GET_MAX), async (chunk) => {
      let request: Record<string, { Keys: Record<string, unknown>[]; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ConsistentRead?: boolean }> | undefined = {
        [this.name]: {
          Keys: itemKeys.slice(chunk * BATCH_GET_MAX, (chunk + 1) * BATCH_GET_MAX).map((key) => ({ ...key })),
          ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
          ...(options.consistent ? { ConsistentRead: true } : {}),
        },
      };
      for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
        if (attempt > BATCH_RETRIES) throw new Error('BatchGetItem kept returning unprocessed keys');
        if (attempt > 0) await pause(25 * 2 ** attempt);
        const out = await this.calls.batchGet({ RequestItems: request });
        found.push(...(out.Responses?.[this.name] ?? []));
        request = out.UnprocessedKeys as typeof request;
      }
    }, options.schedule ?? immediately);
    return found;
  }

  /** Puts and deletes in batches of 25 (not a transaction: each item is independent). */
  async batchWrite(puts: StoredItem[], deletes: ItemKey[] = [], options: { schedule?: BatchCallScheduler } = {}): Promise<void> {
    type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>;
    const requests: WriteRequests[string] = [...puts.map((Item) => ({ PutRequest: { Item } })), ...deletes.map((Key) => ({ DeleteRequest: { Key: { ...Key } } }))];
    await eachChunk(Math.ceil(requests.length / BATCH_WRITE_MAX), async (chunk) => {
      let pending: WriteRequests | undefined = { [this.name]: requests.slice(chunk * BATCH_WRITE_MAX, (chunk + 1) * BATCH_WRITE_MAX) };
      for (let attempt = 0; pending && Object.keys(pending).length > 0; attempt++) {
        if (attempt > BATCH_RETRIES) throw new Error('BatchWriteItem kept returning unprocessed items');
        if (attempt > 0) await pause(25 * 2 ** attempt);
        const out = await this.calls.batchWrite({ RequestItems: pending });
        pending = out.UnprocessedItems;
      }
    }, options.schedule ?? immediately);
  }

  /** One raw page under a key prefix in key order, from `startKey`: for readers that walk a whole partition. */
  async queryRaw(prefix: KeyPrefix, options: { startKey?: Record<string, unknown> | undefined; limit?: number; projection?: string[]; consistent?: boolean } = {}): Promise<RawPage> {
    const names = options.projection ? Object.fromEntries(options.projection.map((n, i) => [`#p${i}`, n])) : {};
    // DynamoDB refuses begins_with on an empty string: an empty prefix is the whole partition.
    const whole = prefix.SKPrefix === '';
    const out = await this.calls.query({
        TableName: this.name,
        KeyConditionExpression: whole ? '#pk = :pk' : PREFIX_CONDITION,
        ExpressionAttributeNames: { '#pk': tableDefinition.partitionKey, ...(whole && !options.projection ? {} : { '#sk': tableDefinition.sortKey }), ...names },
        ExpressionAttributeValues: { ':pk': prefix.PK, ...(whole ? {} : prefixValues(prefix.SKPrefix)) },
        ...(options.projection ? { ProjectionExpression: ['#sk', ...Object.keys(names)].join(', ') } : {}),
        ...(options.limit ? { Limit: options.limit } : {}),
        ...(options.consistent === false ? {} : { ConsistentRead: true }),
        ExclusiveStartKey: options.startKey,
    });
    return { items: out.Items ?? [], lastKey: out.LastEvaluatedKey };
  }

  /**
   * One raw page of a partition (of the table or an index) between two sort keys, both
   * inclusive, in either order, optionally filtered: for internal readers that keep their
   * position themselves (never sent to a client as it is).
   */
  async queryRange(q: {
    index?: GsiName;
    partition: string;
    from: string;
    to: string;
    newestFirst?: boolean;
    limit: number;
    startKey?: Record<string, unknown> | undefined;
    filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  }): Promise<RawPage> {
    const gsi = q.index ? tableDefinition.globalSecondaryIndexes.find((g) => g.indexName === q.index)! : undefined;
    const out = await this.calls.query({
      TableName: this.name,
      ...(q.index ? { IndexName: q.index } : { ConsistentRead: true }),
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ...(q.filter ? { FilterExpression: q.filter.expression } : {}),
      ExpressionAttributeNames: { '#pk': gsi?.partitionKey ?? tableDefinition.partitionKey, '#sk': gsi?.sortKey ?? tableDefinition.sortKey, ...q.filter?.names },
      ExpressionAttributeValues: { ':pk': q.partition, ':from': q.from, ':to': q.to, ...q.filter?.values },
      ScanIndexForward: !q.newestFirst,
      Limit: q.limit,
      ExclusiveStartKey: q.startKey,
    });
    return { items: out.Items ?? [], lastKey: out.LastEvaluatedKey };
  }

  /**
   * How many items (of the table or an index) a partition holds under a sort-key prefix: counted
   * by DynamoDB page by page (`Select: COUNT`), so no item is returned or held.
   */
  async countPrefix(q: { index?: GsiName; partition: string; sortPrefix: string }): Promise<number> {
    const gsi = q.index ? tableDefinition.globalSecondaryIndexes.find((g) => g.indexName === q.index)! : undefined;
    let count = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await this.calls.query({
        TableName: this.name,
        ...(q.index ? { IndexName: q.index } : { ConsistentRead: true }),
        KeyConditionExpression: PREFIX_CONDITION,
        ExpressionAttributeNames: { '#pk': gsi?.partitionKey ?? tableDefinition.partitionKey, '#sk': gsi?.sortKey ?? tableDefinition.sortKey },
        ExpressionAttributeValues: { ':pk': q.partition, ...prefixValues(q.sortPrefix) },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      });
      count += out.Count ?? 0;
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return count;
  }

  /** Items of an index partition whose sort key is at most `upTo` (oldest first): due work. */
  async queryIndexUpTo(index: GsiName, partition: string, upTo: string, limit: number): Promise<StoredItem[]> {
    const gsi = tableDefinition.globalSecondaryIndexes.find((g) => g.indexName === index)!;
    const out = await this.calls.query({
        TableName: this.name,
        IndexName: index,
        KeyConditionExpression: '#pk = :pk AND #sk <= :upTo',
        ExpressionAttributeNames: { '#pk': gsi.partitionKey, '#sk': gsi.sortKey },
        ExpressionAttributeValues: { ':pk': partition, ':upTo': upTo },
        Limit: limit,
    });
    return (out.Items ?? []).map((item) => withoutKeys<StoredItem>(item));
  }

  /** One page of the items under a key prefix, newest first (ids are time-ordered). */
  async queryPrefix<T>(prefix: KeyPrefix, page: PageRequest, options: { newestFirst?: boolean; filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> } } = {}): Promise<Page<T>> {
    return this.queryPage<T>({
      partitionAttribute: tableDefinition.partitionKey,
      sortAttribute: tableDefinition.sortKey,
      partition: prefix.PK,
      sortPrefix: prefix.SKPrefix,
      page,
      newestFirst: options.newestFirst ?? true,
      filter: options.filter,
    });
  }

  async queryIndexPrefix<T>(index: GsiName, partition: string, sortPrefix: string, page: PageRequest, options: { newestFirst?: boolean } = {}): Promise<Page<T>> {
    const gsi = tableDefinition.globalSecondaryIndexes.find((g) => g.indexName === index)!;
    return this.queryPage<T>({
      index,
      partitionAttribute: gsi.partitionKey,
      sortAttribute: gsi.sortKey,
      partition,
      sortPrefix,
      page,
      newestFirst: options.newestFirst ?? true,
      filter: undefined,
    });
  }

  private async queryPage<T>(q: {
    index?: string;
    partitionAttribute: string;
    sortAttribute: string;
    partition: string;
    sortPrefix: string;
    page: PageRequest;
    newestFirst: boolean;
    filter: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> } | undefined;
  }): Promise<Page<T>> {
    const items: T[] = [];
    let startKey = q.page.cursor ? decodeCursor(q.page.cursor, q.partitionAttribute, q.partition) : undefined;
    // With a filter a page can come back short; keep reading until the page is full or the partition ends.
    for (;;) {
      const out = await this.calls.query({
          TableName: this.name,
          ...(q.index ? { IndexName: q.index } : { ConsistentRead: true }),
          KeyConditionExpression: PREFIX_CONDITION,
          ...(q.filter ? { FilterExpression: q.filter.expression } : {}),
          ExpressionAttributeNames: { '#pk': q.partitionAttribute, '#sk': q.sortAttribute, ...q.filter?.names },
          ExpressionAttributeValues: { ':pk': q.partition, ...prefixValues(q.sortPrefix), ...q.filter?.values },
          ScanIndexForward: !q.newestFirst,
          Limit: q.page.limit - items.length,
          ExclusiveStartKey: startKey,
      });
      for (const item of out.Items ?? []) items.push(withoutKeys<T>(item));
      startKey = out.LastEvaluatedKey;
      if (!startKey || items.length >= q.page.limit) break;
    }
    return { items, nextCursor: startKey ? encodeCursor(startKey) : null };
  }
}
