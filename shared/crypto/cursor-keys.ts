/**
 * The keys that seal list cursors (`shared/http/cursors.ts`): AES-256 keys derived by HKDF from
 * a secret of their own (not the JWT signing seed: a function that only verifies tokens must
 * hold no signing material). In AWS the secret's AWSCURRENT version seals and AWSPREVIOUS
 * still opens, so a rotation does not break the cursors clients hold; locally a key file.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config';
import type { Deps, DepsPart } from '../deps';
import { EARLY_REFRESH_INTERVAL_SECONDS, ExpiringValue } from './expiring-value';
import { readOrCreateKeyFile } from './local-key-file';
import { readCurrentAndPreviousSecrets, type SecretsManagerLocation } from './secret-versions';

export function deriveCursorKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), 'tessera-list-cursor-aes-256-gcm', 32));
}

/** The cursor keys, the sealing one first. */
export async function loadCursorKeys(config: Pick<Config, 'cursorKeys'> & SecretsManagerLocation): Promise<Buffer[]> {
  const source = config.cursorKeys;
  const secrets =
    source.kind === 'secrets-manager'
      ? await readCurrentAndPreviousSecrets(source.secretArn, config, 'cursor key')
      : (await readOrCreateKeyFile<{ secrets: string[] }>(source.path, () => ({ secrets: [randomBytes(32).toString('base64url')] }))).secrets;
  if (!secrets.length) throw new Error('No cursor key material');
  return secrets.map(deriveCursorKey);
}

/**
 * The cursor keys of these deps: read on the first cursor, then kept like the other keys.
 * A part (not a field of every `Deps`), so only list functions bundle the Secrets Manager reads.
 */
const CURSOR_KEYS: DepsPart<ExpiringValue<Buffer[]>> = {
  name: 'cursor keys',
  create: (deps) => new ExpiringValue(() => loadCursorKeys(deps.config), deps.clock, deps.config.keyCacheSeconds * 1000, EARLY_REFRESH_INTERVAL_SECONDS * 1000),
};

export function cursorKeysOf(deps: Pick<Deps, 'part'>): ExpiringValue<Buffer[]> {
  return deps.part(CURSOR_KEYS);
}
