/**
 * The floor of the cold-start bench (issue 12): a handler that only builds the DynamoDB
 * document client and sends one GetCommand. Bundled with plain esbuild, without the Lambda
 * credential alias: the document client as shipped.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (): Promise<{ statusCode: number; body: string }> => {
  const { Item } = await client.send(new GetCommand({ TableName: process.env.TESSERA_TABLE, Key: { PK: 'BENCH#floor', SK: 'floor' } }));
  return { statusCode: Item ? 200 : 404, body: '' };
};
