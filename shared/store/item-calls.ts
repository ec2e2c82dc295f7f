/**
 * DynamoDB's item operations with items as plain values, over the wire client (`client.ts`):
 * the one place where items are marshalled to DynamoDB's attribute values and back. The
 * inputs and outputs keep the document client's (`@aws-sdk/lib-dynamodb`) types, so callers
 * write what they would write with it; the wire shapes are the SDK's low-level ones.
 */
import type {
  AttributeValue,
  BatchGetItemOutput,
  BatchWriteItemOutput,
  DeleteItemOutput,
  GetItemOutput,
  PutItemOutput,
  QueryOutput,
  TransactWriteItem,
  UpdateItemOutput,
  WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall, type marshallOptions } from '@aws-sdk/util-dynamodb';
import type { DynamoDbClient } from './client';

type Wire = Record<string, AttributeValue>;
type Plain = Record<string, unknown>;

/** Undefined attributes are left out (as the document client was told to); class instances are refused, not flattened. */
const MARSHALL: marshallOptions = { removeUndefinedValues: true, convertClassInstanceToMap: false };

// A missing key or item is sent empty: DynamoDB refuses it as it refuses any malformed request.
const toWire = (item: Plain | undefined): Wire => marshall(item ?? {}, MARSHALL);
const toWireIf = (item: Plain | undefined): Wire | undefined => (item ? toWire(item) : undefined);
const fromWire = (item: Wire): Plain => unmarshall(blobsDecoded(item));

/** The JSON protocol brings binary values (`B`, `BS`) as base64: back to the bytes the SDK's shapes promise. */
function blobsDecoded(item: Wire): Wire {
  const decode = (value: AttributeValue): AttributeValue => {
    if (value.B !== undefined) return { B: toBytes(value.B) };
    if (value.BS !== undefined) return { BS: value.BS.map(toBytes) };
    if (value.M !== undefined) return { M: blobsDecoded(value.M) };
    if (value.L !== undefined) return { L: value.L.map(decode) };
    return value;
  };
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, decode(value)]));
}

const toBytes = (blob: Uint8Array | string): Uint8Array => (typeof blob === 'string' ? new Uint8Array(Buffer.from(blob, 'base64')) : blob);
const fromWireIf = (item: Wire | undefined): Plain | undefined => (item ? fromWire(item) : undefined);

/** The item operations the table client uses, with the document client's input and output shapes. */
export class ItemCalls {
  constructor(private readonly client: DynamoDbClient) {}

  async get(input: GetCommandInput): Promise<Pick<GetCommandOutput, 'Item'>> {
    const out = await this.client.call<GetItemOutput>('GetItem', { ...input, Key: toWire(input.Key) });
    return { Item: fromWireIf(out.Item) };
  }

  async put(input: PutCommandInput): Promise<Pick<PutCommandOutput, 'Attributes'>> {
    const out = await this.client.call<PutItemOutput>('PutItem', { ...input, Item: toWire(input.Item), ExpressionAttributeValues: toWireIf(input.ExpressionAttributeValues) });
    return { Attributes: fromWireIf(out.Attributes) };
  }

  async update(input: UpdateCommandInput): Promise<Pick<UpdateCommandOutput, 'Attributes'>> {
    const out = await this.client.call<UpdateItemOutput>('UpdateItem', { ...input, Key: toWire(input.Key), ExpressionAttributeValues: toWireIf(input.ExpressionAttributeValues) });
    return { Attributes: fromWireIf(out.Attributes) };
  }

  async delete(input: DeleteCommandInput): Promise<Pick<DeleteCommandOutput, 'Attributes'>> {
    const out = await this.client.call<DeleteItemOutput>('DeleteItem', { ...input, Key: toWire(input.Key), ExpressionAttributeValues: toWireIf(input.ExpressionAttributeValues) });
    return { Attributes: fromWireIf(out.Attributes) };
  }

  async transactWrite(input: TransactWriteCommandInput): Promise<Pick<TransactWriteCommandOutput, never>> {
    await this.client.call('TransactWriteItems', { ...input, TransactItems: input.TransactItems?.map(transactItemToWire) });
    return {};
  }

  async batchGet(input: BatchGetCommandInput): Promise<Pick<BatchGetCommandOutput, 'Responses' | 'UnprocessedKeys'>> {
    const out = await this.client.call<BatchGetItemOutput>('BatchGetItem', { ...input, RequestItems: perTable(input.RequestItems, (request) => ({ ...request, Keys: request.Keys?.map(toWire) })) });
    return {
      Responses: perTable(out.Responses, (items) => items.map(fromWire)),
      UnprocessedKeys: perTable(out.UnprocessedKeys, (request) => ({ ...request, Keys: request.Keys?.map(fromWire) })),
    };
  }

  async batchWrite(input: BatchWriteCommandInput): Promise<Pick<BatchWriteCommandOutput, 'UnprocessedItems'>> {
    const out = await this.client.call<BatchWriteItemOutput>('BatchWriteItem', { ...input, RequestItems: perTable(input.RequestItems, (writes) => writes.map(writeRequestToWire)) });
    return { UnprocessedItems: perTable(out.UnprocessedItems, (writes) => writes.map(writeRequestFromWire)) };
  }

  async query(input: QueryCommandInput): Promise<Pick<QueryCommandOutput, 'Items' | 'LastEvaluatedKey' | 'Count'>> {
    const out = await this.client.call<QueryOutput>('Query', { ...input, ExpressionAttributeValues: toWireIf(input.ExpressionAttributeValues), ExclusiveStartKey: toWireIf(input.ExclusiveStartKey) });
    return { Items: out.Items?.map(fromWire), LastEvaluatedKey: fromWireIf(out.LastEvaluatedKey), Count: out.Count };
  }
}

/** A batch call's map of table name to request or answer, each converted. */
function perTable<A, B>(tables: Record<string, A> | undefined, convert: (value: A) => B): Record<string, B> | undefined {
  return tables && Object.fromEntries(Object.entries(tables).map(([table, value]) => [table, convert(value)]));
}

type PlainTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type PlainWriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

function transactItemToWire(item: PlainTransactItem): TransactWriteItem {
  const values = (v: Plain | undefined) => ({ ExpressionAttributeValues: toWireIf(v) });
  return {
    ...(item.Put ? { Put: { ...item.Put, Item: toWire(item.Put.Item), ...values(item.Put.ExpressionAttributeValues) } } : {}),
    ...(item.Update ? { Update: { ...item.Update, Key: toWire(item.Update.Key), ...values(item.Update.ExpressionAttributeValues) } } : {}),
    ...(item.Delete ? { Delete: { ...item.Delete, Key: toWire(item.Delete.Key), ...values(item.Delete.ExpressionAttributeValues) } } : {}),
    ...(item.ConditionCheck ? { ConditionCheck: { ...item.ConditionCheck, Key: toWire(item.ConditionCheck.Key), ...values(item.ConditionCheck.ExpressionAttributeValues) } } : {}),
  };
}

function writeRequestToWire(request: PlainWriteRequest): WriteRequest {
  return {
    ...(request.PutRequest ? { PutRequest: { Item: toWire(request.PutRequest.Item) } } : {}),
    ...(request.DeleteRequest ? { DeleteRequest: { Key: toWire(request.DeleteRequest.Key) } } : {}),
  };
}

function writeRequestFromWire(request: WriteRequest): PlainWriteRequest {
  return {
    ...(request.PutRequest ? { PutRequest: { Item: fromWire(request.PutRequest.Item!) } } : {}),
    ...(request.DeleteRequest ? { DeleteRequest: { Key: fromWire(request.DeleteRequest.Key!) } } : {}),
  };
}
