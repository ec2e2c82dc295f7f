/**
 * What DynamoDB Local never answers: keys and items a batch left unprocessed (throttling) come
 * back as plain values, ready to be sent again.
 */
import { describe, expect, it } from 'vitest';
import type { DynamoDbClient } from '../../shared/store/client';
import { ItemCalls } from '../../shared/store/item-calls';

/** A wire client that answers every call with `answer`, recording each input. */
function answering(answer: unknown) {
  const sent: unknown[] = [];
  const client = { call: (_operation: string, input: unknown) => (sent.push(input), Promise.resolve(answer)), destroy: () => undefined };
  return { calls: new ItemCalls(client as DynamoDbClient), sent };
}

describe('item calls, unprocessed work', () => {
  it('gives back unprocessed batch keys as plain keys, and sends them marshalled again', async () => {
    const { calls, sent } = answering({ Responses: { T: [{ PK: { S: 'a' }, n: { N: '1' } }] }, UnprocessedKeys: { T: { Keys: [{ PK: { S: 'b' }, SK: { S: 'c' } }], ConsistentRead: true } } });
    const out = await calls.batchGet({ RequestItems: { T: { Keys: [{ PK: 'a' }, { PK: 'b', SK: 'c' }] } } });
    expect(out).toEqual({ Responses: { T: [{ PK: 'a', n: 1 }] }, UnprocessedKeys: { T: { Keys: [{ PK: 'b', SK: 'c' }], ConsistentRead: true } } });
    await calls.batchGet({ RequestItems: out.UnprocessedKeys });
    expect(sent[1]).toEqual({ RequestItems: { T: { Keys: [{ PK: { S: 'b' }, SK: { S: 'c' } }], ConsistentRead: true } } });
  });

  it('gives back unprocessed batch writes as plain puts and deletes', async () => {
    const { calls, sent } = answering({ UnprocessedItems: { T: [{ PutRequest: { Item: { PK: { S: 'a' }, v: { L: [{ N: '2' }] } } } }, { DeleteRequest: { Key: { PK: { S: 'b' } } } }] } });
    const out = await calls.batchWrite({ RequestItems: { T: [{ PutRequest: { Item: { PK: 'a', v: [2], gone: undefined } } }, { DeleteRequest: { Key: { PK: 'b' } } }] } });
    expect(sent[0]).toEqual({ RequestItems: { T: [{ PutRequest: { Item: { PK: { S: 'a' }, v: { L: [{ N: '2' }] } } } }, { DeleteRequest: { Key: { PK: { S: 'b' } } } }] } });
    expect(out.UnprocessedItems).toEqual({ T: [{ PutRequest: { Item: { PK: 'a', v: [2] } } }, { DeleteRequest: { Key: { PK: 'b' } } }] });
  });
});
