/**
 * Secrets Manager reads and writes of the key seeds (the JWT signing seed, the cursor secret).
 * The client is imported on first use: a function that never reads a secret (most requests of
 * most functions) does not pay for loading it at cold start.
 */
import type { GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { tracing } from '../tracing';

// A client per read: reads happen once per key cache period, not per request.
async function secretsManager(region: string) {
  const module = await import('@aws-sdk/client-secrets-manager');
  return { module, client: tracing.captureClient(new module.SecretsManagerClient({ region })) };
}

async function readStage(secretArn: string, region: string, stage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<GetSecretValueCommandOutput> {
  const sm = await secretsManager(region);
  try {
    return await sm.client.send(new sm.module.GetSecretValueCommand({ SecretId: secretArn, VersionStage: stage }));
  } finally {
    sm.client.destroy();
  }
}

/** The current version's string; an empty or binary secret is refused. */
export async function readCurrentSecret(secretArn: string, region: string, what: string): Promise<string> {
  const current = (await readStage(secretArn, region, 'AWSCURRENT')).SecretString;
  if (!current) throw new Error(`The ${what} secret is empty`);
  return current;
}

/** The current version's string, then the previous one's when there is one (none before the first rotation). */
export async function readCurrentAndPreviousSecrets(secretArn: string, region: string, what: string): Promise<string[]> {
  const secrets = [await readCurrentSecret(secretArn, region, what)];
  try {
    const previous = await readStage(secretArn, region, 'AWSPREVIOUS');
    if (previous.SecretString) secrets.push(previous.SecretString);
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  return secrets;
}

/** A new current version (Secrets Manager moves AWSCURRENT to it and AWSPREVIOUS to the old one). */
export async function putSecret(secretArn: string, region: string, value: string): Promise<void> {
  const sm = await secretsManager(region);
  try {
    await sm.client.send(new sm.module.PutSecretValueCommand({ SecretId: secretArn, SecretString: value }));
  } finally {
    sm.client.destroy();
  }
}
