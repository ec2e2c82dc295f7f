/**
 * The item calls against DynamoDB Local, held to the document client they replace: what one
 * writes the other reads back unchanged, each call's plain values go out and come back (keys,
 * condition values, paging keys, old attributes), and the cached middleware stacks never mix
 * one call's input into the next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ItemCalls } from '../../shared/store/item-calls';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let calls: ItemCalls;
let TableName: string;

beforeAll(async () => {
  host = await startTestHost();
  calls = new ItemCalls(host.deps.db);
  TableName = host.config.tableName;
});
afterAll(async () => host?.close());

const rich = { PK: 'ITEMS#1', SK: 'A', text: 'é ü', count: 42, ratio: 0.25, flag: false, none: null, list: [1, 'two', { three: 3 }], map: { nested: { deep: ['x'] } }, tags: new Set(['a', 'b']), bytes: new Uint8Array([1, 2, 3]) };

describe('item calls', () => {
  it('write what the document client reads, and read what it writes, value for value', async () => {
    await calls.put({ TableName, Item: { ...rich, gone: undefined } });
    const read = await host.documents.send(new GetCommand({ TableName, Key: { PK: rich.PK, SK: rich.SK }, ConsistentRead: true }));
    expect(read.Item).toEqual(rich);
    expect(read.Item).not.toHaveProperty('gone');

    await host.documents.send(new PutCommand({ TableName, Item: { ...rich, SK: 'B' } }));
    expect((await calls.get({ TableName, Key: { PK: rich.PK, SK: 'B' }, ConsistentRead: true })).Item).toEqual({ ...rich, SK: 'B' });
    expect((await calls.get({ TableName, Key: { PK: rich.PK, SK: 'missing' }, ConsistentRead: true })).Item).toBeUndefined();
  });

  it('answer each call with its own item: the cached stacks carry no input of an earlier call', async () => {
    await calls.batchWrite({ RequestItems: { [TableName]: Array.from({ length: 5 }, (_, i) => ({ PutRequest: { Item: { PK: 'ITEMS#2', SK: `${i}`, i } } })) } });
    const read = await Promise.all(Array.from({ length: 5 }, (_, i) => calls.get({ TableName, Key: { PK: 'ITEMS#2', SK: `${i}` }, ConsistentRead: true })));
    expect(read.map((r) => r.Item?.i as number)).toEqual([0, 1, 2, 3, 4]);
  });

  it('send condition values and bring back old attributes', async () => {
    await calls.put({ TableName, Item: { PK: 'ITEMS#3', SK: 'A', n: 1 } });
    const refused = calls.update({ TableName, Key: { PK: 'ITEMS#3', SK: 'A' }, UpdateExpression: 'SET n = :n', ConditionExpression: 'n = :old', ExpressionAttributeValues: { ':n': 3, ':old': 2 } });
    await expect(refused).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    const updated = await calls.update({ TableName, Key: { PK: 'ITEMS#3', SK: 'A' }, UpdateExpression: 'SET n = :n', ConditionExpression: 'n = :old', ExpressionAttributeValues: { ':n': 3, ':old': 1 }, ReturnValues: 'ALL_NEW' });
    expect(updated.Attributes).toEqual({ PK: 'ITEMS#3', SK: 'A', n: 3 });
    const deleted = await calls.delete({ TableName, Key: { PK: 'ITEMS#3', SK: 'A' }, ConditionExpression: 'n = :n', ExpressionAttributeValues: { ':n': 3 }, ReturnValues: 'ALL_OLD' });
    expect(deleted.Attributes).toEqual({ PK: 'ITEMS#3', SK: 'A', n: 3 });
    expect((await calls.delete({ TableName, Key: { PK: 'ITEMS#3', SK: 'A' } })).Attributes).toBeUndefined();
  });

  it('write every kind of transaction item, and cancel on a condition with its reasons', async () => {
    await calls.put({ TableName, Item: { PK: 'ITEMS#4', SK: 'keep', v: 1 } });
    await calls.put({ TableName, Item: { PK: 'ITEMS#4', SK: 'drop' } });
    await calls.transactWrite({
      TransactItems: [
        { Put: { TableName, Item: { PK: 'ITEMS#4', SK: 'new', tags: new Set([1, 2]) }, ConditionExpression: 'attribute_not_exists(PK)' } },
        { Update: { TableName, Key: { PK: 'ITEMS#4', SK: 'keep' }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': { to: 2 } } } },
        { Delete: { TableName, Key: { PK: 'ITEMS#4', SK: 'drop' } } },
        { ConditionCheck: { TableName, Key: { PK: 'ITEMS#3', SK: 'A' }, ConditionExpression: 'attribute_not_exists(PK)' } },
      ],
    });
    const page = await calls.query({ TableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'ITEMS#4' }, ConsistentRead: true });
    expect(page.Items).toEqual([
      { PK: 'ITEMS#4', SK: 'keep', v: { to: 2 } },
      { PK: 'ITEMS#4', SK: 'new', tags: new Set([1, 2]) },
    ]);
    const cancelled = calls.transactWrite({ TransactItems: [{ ConditionCheck: { TableName, Key: { PK: 'ITEMS#4', SK: 'keep' }, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': 1 } } }] });
    await expect(cancelled).rejects.toMatchObject({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] });
  });

  it('page a query with the plain last key, and read and delete in batches', async () => {
    const first = await calls.query({ TableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'ITEMS#2' }, Limit: 3, ConsistentRead: true });
    expect(first.Items?.map((i) => i.SK as string)).toEqual(['0', '1', '2']);
    expect(first.LastEvaluatedKey).toEqual({ PK: 'ITEMS#2', SK: '2' });
    const second = await calls.query({ TableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'ITEMS#2' }, ExclusiveStartKey: first.LastEvaluatedKey, ConsistentRead: true });
    expect(second.Items?.map((i) => i.SK as string)).toEqual(['3', '4']);

    const got = await calls.batchGet({ RequestItems: { [TableName]: { Keys: [{ PK: 'ITEMS#2', SK: '1' }, { PK: 'ITEMS#2', SK: '4' }, { PK: 'ITEMS#2', SK: 'none' }], ConsistentRead: true } } });
    expect(got.Responses?.[TableName]?.map((i) => i.i as number).sort()).toEqual([1, 4]);
    expect(got.UnprocessedKeys).toEqual({});

    const written = await calls.batchWrite({ RequestItems: { [TableName]: [{ DeleteRequest: { Key: { PK: 'ITEMS#2', SK: '0' } } }, { PutRequest: { Item: { PK: 'ITEMS#2', SK: '5', i: 5 } } }] } });
    expect(written.UnprocessedItems).toEqual({});
    const after = await calls.query({ TableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'ITEMS#2' }, ConsistentRead: true });
    expect(after.Items?.map((i) => i.SK as string)).toEqual(['1', '2', '3', '4', '5']);
  });
});
