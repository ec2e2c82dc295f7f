/**
 * Secrets Manager reads and writes of the key seeds (the JWT signing seed, the cursor secret),
 * over its AWS JSON 1.1 protocol (`secretsmanager.<Operation>`, `shared/aws/aws-json-client.ts`).
 * Errors are `AwsServiceError`s named as Secrets Manager names them (`ResourceNotFoundException`,
 * `AccessDeniedException`…).
 */
import { randomUUID } from 'node:crypto';
import { createAwsJsonClient } from '../aws/aws-json-client';
import type { Config } from '../config';

/** Where Secrets Manager is: the region, and an endpoint other than AWS's when configured. */
export type SecretsManagerLocation = Pick<Config, 'region'> & { awsEndpoints: Pick<Config['awsEndpoints'], 'secretsManager'> };

/** What GetSecretValue answers that Tessera reads: a binary secret has no `SecretString`. */
interface SecretValue {
  SecretString?: string;
}

// A client per call, closed after it: reads happen once per key cache period, not per request.
async function secretsManagerCall<Output>(where: SecretsManagerLocation, operation: string, input: object): Promise<Output> {
  const client = createAwsJsonClient({ service: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', tracedName: 'Secrets Manager' }, { region: where.region, endpoint: where.awsEndpoints.secretsManager });
  try {
    return await client.call<Output>(operation, input);
  } finally {
    client.destroy();
  }
}

const readStage = (secretArn: string, where: SecretsManagerLocation, stage: 'AWSCURRENT' | 'AWSPREVIOUS') =>
  secretsManagerCall<SecretValue>(where, 'GetSecretValue', { SecretId: secretArn, VersionStage: stage });

/** The current version's string; an empty or binary secret is refused. */
export async function readCurrentSecret(secretArn: string, where: SecretsManagerLocation, what: string): Promise<string> {
  const current = (await readStage(secretArn, where, 'AWSCURRENT')).SecretString;
  if (!current) throw new Error(`The ${what} secret is empty`);
  return current;
}

/** The current version's string, then the previous one's when there is one (none before the first rotation). */
export async function readCurrentAndPreviousSecrets(secretArn: string, where: SecretsManagerLocation, what: string): Promise<string[]> {
  const secrets = [await readCurrentSecret(secretArn, where, what)];
  try {
    const previous = await readStage(secretArn, where, 'AWSPREVIOUS');
    if (previous.SecretString) secrets.push(previous.SecretString);
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  return secrets;
}

/** A new current version (Secrets Manager moves AWSCURRENT to it and AWSPREVIOUS to the old one). */
export async function putSecret(secretArn: string, where: SecretsManagerLocation, value: string): Promise<void> {
  // The SDKs fill in this idempotency token; a raw request must carry its own (it is the new
  // version's id, and a retry with the same token does not make a second version).
  await secretsManagerCall(where, 'PutSecretValue', { SecretId: secretArn, SecretString: value, ClientRequestToken: randomUUID() });
}
