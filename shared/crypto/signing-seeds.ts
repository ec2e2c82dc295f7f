/**
 * The private JWT signing seed: the Secrets Manager secret's AWSCURRENT version in AWS, a key
 * file locally. Only token issuers (and the operator's rotation) import this module, so only
 * their bundles carry the code that reads it, and only their roles may
 * (`infra/handler-capabilities.ts` `tokenIssuingHandlers`, checked against the bundles).
 */
import type { Config } from '../config';
import { readOrCreateKeyFile, replaceKeyFile } from './local-key-file';
import { putSecret, readCurrentSecret, type SecretsManagerLocation } from './secret-versions';
import { newSigningSeed } from './signing-keys';

/** The local key file: the current seed first (older files may list earlier seeds after it). */
interface SigningSeedFile {
  seeds: string[];
}

export async function readCurrentSigningSeed(config: Pick<Config, 'signingKeys'> & SecretsManagerLocation): Promise<string> {
  const source = config.signingKeys;
  if (source.kind === 'secrets-manager') return readCurrentSecret(source.secretArn, config, 'signing key');
  const file = await readOrCreateKeyFile<SigningSeedFile>(source.path, () => ({ seeds: [newSigningSeed()] }));
  const seed = file.seeds[0];
  if (!seed) throw new Error('The signing key file holds no seed');
  return seed;
}

/** Makes `seed` the one issuers sign with from their next read on (the old one is not kept: its public half verifies what it signed). */
export async function writeCurrentSigningSeed(config: Pick<Config, 'signingKeys'> & SecretsManagerLocation, seed: string): Promise<void> {
  const source = config.signingKeys;
  if (source.kind === 'secrets-manager') return putSecret(source.secretArn, config, seed);
  await replaceKeyFile<SigningSeedFile>(source.path, { seeds: [seed] });
}
