/**
 * The table client's answers to what DynamoDB Local never does on its own: unprocessed batch
 * items (throttling), a chain head moved by a parallel append, cancellations for other reasons,
 * and cursors that are not this list's. Scripted item calls answer each call in turn and record
 * what was sent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../shared/errors';
import type { ItemCalls } from '../../shared/store/item-calls';
import { TableClient, type ChainLink } from '../../shared/store/table-client';

interface Sent {
  name: string;
  input: Record<string, unknown>;
}

/** Item calls that answer with `answers`, in order (an Error is thrown), recording each call's name and input. */
function scripted(answers: unknown[]) {
  const sent: Sent[] = [];
  const calls = new Proxy({}, {
    get: (_, name: string) => (input: Record<string, unknown>) => {
      sent.push({ name, input });
      if (answers.length === 0) return Promise.reject(new Error(`unscripted ${name}`));
      const answer = answers.shift();
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  });
  return { table: new TableClient(calls as ItemCalls, 'T'), sent };
}

const cancelled = (...codes: string[]) => Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });
const head = { PK: 'CHAIN', SK: 'HEAD' };
const linkNext = (previous: ChainLink | null) => ({ seq: (previous?.seq ?? 0) + 1, digest: `d${(previous?.seq ?? 0) + 1}` });
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('chained appends', () => {
  it('links two appends to one chain in one transaction, reading the head once, and moves it on the link it read', async () => {
    const { table, sent } = scripted([{ Item: { PK: 'CHAIN', SK: 'HEAD', seq: 4, digest: 'd4' } }, {}]);
    const plain = table.putItem({ PK: 'P', SK: 'S' });
    await table.transact([table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext }), plain, table.chainedPutItem({ PK: 'A', SK: '2' }, { head, link: linkNext })]);
    expect(sent.map((s) => s.name)).toEqual(['get', 'transactWrite']);
    const items = (sent[1]!.input.TransactItems as { Put: { Item: Record<string, unknown>; ConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> } }[]).map((i) => i.Put);
    expect(items.map((p) => [p.Item.SK, p.Item.seq])).toEqual([['1', 5], ['S', undefined], ['2', 6], ['HEAD', 6]]);
    expect(items[1]).not.toHaveProperty('ConditionExpression');
    expect(items[3]!.ExpressionAttributeValues).toEqual({ ':seq': 4, ':digest': 'd4' });
  });

  it('links again on the new head when a parallel append moved it first', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { table, sent } = scripted([{}, cancelled('None', 'ConditionalCheckFailed'), { Item: { PK: 'CHAIN', SK: 'HEAD', seq: 1, digest: 'd1' } }, {}]);
    await table.transact([table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext })]);
    expect(sent.map((s) => s.name)).toEqual(['get', 'transactWrite', 'get', 'transactWrite']);
    const first = (sent[1]!.input.TransactItems as { Put: { Item: Record<string, unknown>; ConditionExpression: string } }[]).map((i) => i.Put);
    expect(first[1]!.ConditionExpression).toBe('attribute_not_exists(PK)');
    const second = (sent[3]!.input.TransactItems as { Put: { Item: Record<string, unknown> } }[]).map((i) => i.Put.Item.seq);
    expect(second).toEqual([2, 2]);
  });

  it('links on a head the caller read ahead without reading it again, and reads it afresh when that one has moved', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { table, sent } = scripted([cancelled('None', 'ConditionalCheckFailed'), { Item: { PK: 'CHAIN', SK: 'HEAD', seq: 8, digest: 'd8' } }, {}]);
    await table.transact([table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext, knownHead: { seq: 7, digest: 'd7' } })]);
    expect(sent.map((s) => s.name)).toEqual(['transactWrite', 'get', 'transactWrite']);
    const seqs = (n: number) => (sent[n]!.input.TransactItems as { Put: { Item: Record<string, unknown>; ExpressionAttributeValues?: Record<string, unknown> } }[]).map((i) => i.Put);
    expect(seqs(0).map((p) => p.Item.seq)).toEqual([8, 8]);
    expect(seqs(0)[1]!.ExpressionAttributeValues).toEqual({ ':seq': 7, ':digest': 'd7' });
    expect(seqs(2).map((p) => p.Item.seq)).toEqual([9, 9]);

    const empty = scripted([{}]);
    await empty.table.transact([empty.table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext, knownHead: null })]);
    expect(empty.sent.map((s) => s.name)).toEqual(['transactWrite']);
    expect((empty.sent[0]!.input.TransactItems as { Put: { ConditionExpression: string } }[])[1]!.Put.ConditionExpression).toBe('attribute_not_exists(PK)');
  });

  it('tries again when a parallel transaction held one of its other items (nothing was written)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { table, sent } = scripted([{}, cancelled('None', 'TransactionConflict', 'None'), {}, {}]);
    await table.transact([table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext }), table.updateItem({ Key: { PK: 'RATE', SK: 'W' }, UpdateExpression: 'ADD #c :m' })]);
    expect(sent.map((s) => s.name)).toEqual(['get', 'transactWrite', 'get', 'transactWrite']);
  });

  it('does not retry when one of its own items failed, nor on another error', async () => {
    const ownItem = scripted([{}, cancelled('ConditionalCheckFailed', 'ConditionalCheckFailed')]);
    await expect(ownItem.table.transact([ownItem.table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext })])).rejects.toThrow('cancelled');
    expect(ownItem.sent).toHaveLength(2);
    const other = scripted([{}, new Error('throttled')]);
    await expect(other.table.transact([other.table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext })])).rejects.toThrow('throttled');
    expect(other.sent).toHaveLength(2);
    const validation = scripted([{}, cancelled('None', 'ValidationError')]);
    await expect(validation.table.transact([validation.table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext })])).rejects.toThrow('cancelled');
    expect(validation.sent).toHaveLength(2);
  });

  it('gives up when the chain stays busy', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const answers = Array.from({ length: 100 }, () => [{}, cancelled('None', 'TransactionConflict')]).flat();
    const { table, sent } = scripted(answers);
    await expect(table.transact([table.chainedPutItem({ PK: 'A', SK: '1' }, { head, link: linkNext })])).rejects.toThrow('An audit chain stayed busy');
    expect(sent.filter((s) => s.name === 'transactWrite')).toHaveLength(100);
  });
});

describe('batches', () => {
  it('getItems reads a few keys in one consistent call, each once, and tells an absent item from one it did not read', async () => {
    const { table, sent } = scripted([{ Responses: { T: [{ PK: 'a', SK: 'a', name: 'A', GSI1PK: 'g' }] } }]);
    const items = await table.getItems([{ PK: 'a', SK: 'a' }, { PK: 'b', SK: 'b' }, { PK: 'a', SK: 'a' }]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input.RequestItems).toEqual({ T: { Keys: [{ PK: 'a', SK: 'a' }, { PK: 'b', SK: 'b' }], ConsistentRead: true } });
    expect(items.get({ PK: 'a', SK: 'a' })).toEqual({ name: 'A' });
    expect(items.get({ PK: 'b', SK: 'b' })).toBeUndefined();
    expect(() => items.get({ PK: 'c', SK: 'c' })).toThrow('c c was not read');
    const none = await table.getItems([]);
    expect(() => none.get({ PK: 'a', SK: 'a' })).toThrow('was not read');
    expect(sent, 'nothing to read: no call').toHaveLength(1);
  });


  it('batchGet sends unprocessed keys again and asks for a projection and consistent reads', async () => {
    vi.useFakeTimers();
    const { table, sent } = scripted([
      { Responses: { T: [{ PK: 'a', SK: 'a' }] }, UnprocessedKeys: { T: { Keys: [{ PK: 'b', SK: 'b' }] } } },
      { Responses: {}, UnprocessedKeys: {} },
    ]);
    const found = table.batchGet([{ PK: 'a', SK: 'a' }, { PK: 'b', SK: 'b' }], { projection: ['PK', 'name'], consistent: true });
    await vi.runAllTimersAsync();
    expect(await found).toEqual([{ PK: 'a', SK: 'a' }]);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.input.RequestItems).toEqual({ T: { Keys: [{ PK: 'a', SK: 'a' }, { PK: 'b', SK: 'b' }], ProjectionExpression: '#p0, #p1', ExpressionAttributeNames: { '#p0': 'PK', '#p1': 'name' }, ConsistentRead: true } });
    expect(sent[1]!.input.RequestItems).toEqual({ T: { Keys: [{ PK: 'b', SK: 'b' }] } });
  });

  it('batchGet gives up on keys that stay unprocessed', async () => {
    vi.useFakeTimers();
    const { table, sent } = scripted(Array.from({ length: 9 }, () => ({ UnprocessedKeys: { T: { Keys: [{ PK: 'a', SK: 'a' }] } } })));
    const found = table.batchGet([{ PK: 'a', SK: 'a' }]);
    const refused = expect(found).rejects.toThrow('BatchGetItem kept returning unprocessed keys');
    await vi.runAllTimersAsync();
    await refused;
    expect(sent).toHaveLength(9);
  });

  it('batchWrite sends unprocessed items again, and gives up on items that stay unprocessed', async () => {
    vi.useFakeTimers();
    const pending = { T: [{ DeleteRequest: { Key: { PK: 'd', SK: 'd' } } }] };
    const once = scripted([{ UnprocessedItems: pending }, {}]);
    const written = once.table.batchWrite([{ PK: 'p', SK: 'p' }], [{ PK: 'd', SK: 'd' }]);
    await vi.runAllTimersAsync();
    await written;
    expect(once.sent.map((s) => s.input.RequestItems)).toEqual([{ T: [{ PutRequest: { Item: { PK: 'p', SK: 'p' } } }, { DeleteRequest: { Key: { PK: 'd', SK: 'd' } } }] }, pending]);

    const stuck = scripted(Array.from({ length: 9 }, () => ({ UnprocessedItems: pending })));
    const refused = expect(stuck.table.batchWrite([], [{ PK: 'd', SK: 'd' }])).rejects.toThrow('BatchWriteItem kept returning unprocessed items');
    await vi.runAllTimersAsync();
    await refused;
    expect(stuck.sent).toHaveLength(9);
  });
});

describe('queries', () => {
  it('queryRaw reads a whole partition for an empty prefix, with a projection, a limit and eventual consistency', async () => {
    const { table, sent } = scripted([{}, { Items: [{ PK: 'p', SK: 'x' }], LastEvaluatedKey: { PK: 'p', SK: 'x' } }]);
    expect(await table.queryRaw({ PK: 'p', SKPrefix: '' }, { projection: ['name'], limit: 5, consistent: false })).toEqual({ items: [], lastKey: undefined });
    expect(sent[0]!.input).toMatchObject({ KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', '#p0': 'name' }, ProjectionExpression: '#sk, #p0', Limit: 5 });
    expect(sent[0]!.input).not.toHaveProperty('ConsistentRead');
    expect(sent[0]!.input.ExpressionAttributeValues).toEqual({ ':pk': 'p' });
    expect(await table.queryRaw({ PK: 'p', SKPrefix: '' })).toEqual({ items: [{ PK: 'p', SK: 'x' }], lastKey: { PK: 'p', SK: 'x' } });
    expect(sent[1]!.input).toMatchObject({ ExpressionAttributeNames: { '#pk': 'PK' }, ConsistentRead: true });
    expect(sent[1]!.input).not.toHaveProperty('Limit');
  });

  it('queryIndexUpTo answers no items as an empty list', async () => {
    const { table } = scripted([{}]);
    expect(await table.queryIndexUpTo('GSI1', 'due', '2026', 10)).toEqual([]);
  });

  it('a filtered page that comes back short is read on until it is full, oldest first on request', async () => {
    const { table, sent } = scripted([
      { Items: [{ PK: 'p', SK: 'x#1', v: 1 }], LastEvaluatedKey: { PK: 'p', SK: 'x#1' } },
      { LastEvaluatedKey: { PK: 'p', SK: 'x#2' } },
      { Items: [{ PK: 'p', SK: 'x#3', v: 3 }], LastEvaluatedKey: { PK: 'p', SK: 'x#3' } },
    ]);
    const page = await table.queryPrefix<{ v: number }>({ PK: 'p', SKPrefix: 'x#' }, { limit: 2 }, { newestFirst: false, filter: { expression: '#v > :v', names: { '#v': 'v' }, values: { ':v': 0 } } });
    expect(page.items).toEqual([{ v: 1 }, { v: 3 }]);
    expect(page.nextCursor).toBe(cursorOf({ PK: 'p', SK: 'x#3' }));
    expect(sent.map((s) => s.input.Limit)).toEqual([2, 1, 1]);
    expect(sent[0]!.input).toMatchObject({ ScanIndexForward: true, FilterExpression: '#v > :v', ExpressionAttributeValues: { ':pk': 'p', ':prefix': 'x#', ':v': 0 } });
  });

  it('refuses a cursor that is not a cursor of this list', async () => {
    const { table, sent } = scripted([]);
    const refusals = ['%%%', cursorOf('text'), cursorOf(null), cursorOf(['p']), cursorOf({ PK: 'other', SK: 'x' }), cursorOf({ PK: 'p', SK: 7 })];
    for (const cursor of refusals) {
      await expect(table.queryPrefix({ PK: 'p', SKPrefix: 'x#' }, { limit: 2, cursor })).rejects.toBeInstanceOf(ValidationError);
      await expect(table.queryIndexPrefix('GSI1', 'p', 'x#', { limit: 2, cursor })).rejects.toBeInstanceOf(ValidationError);
    }
    expect(sent).toHaveLength(0);
  });
});
