import { SecretsManagerClient, type GetSecretValueCommand, type GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSigningKeySet, deriveCursorKey, deriveSigningKey, loadSigningKeys } from '../../shared/crypto/signing-keys';

const config = { signingKeys: { kind: 'secrets-manager' as const, secretArn: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:tessera-jwt' }, region: 'us-east-1' };
const CURRENT = 'current-seed-0123456789abcdefghijklmnop';
const PREVIOUS = 'previous-seed-0123456789abcdefghijklmnop';

const awsError = (name: string) => Object.assign(new Error(name), { name });

/** Secrets Manager answers by version stage: a string is the secret, an Error is thrown. */
function secretsManagerAnswers(byStage: Record<string, string | undefined | Error>): void {
  const send = (command: GetSecretValueCommand): Promise<Partial<GetSecretValueCommandOutput>> => {
    const answer = byStage[command.input.VersionStage!];
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer === undefined ? {} : { SecretString: answer });
  };
  // The client is made inside the loader: its prototype's send is the seam.
  vi.spyOn(SecretsManagerClient.prototype, 'send').mockImplementation(send as unknown as () => void);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('signing keys from Secrets Manager', () => {
  it('the current version signs; the previous one still verifies and opens cursors', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: PREVIOUS });
    const set = await loadSigningKeys(config);
    const current = deriveSigningKey(CURRENT);
    const previous = deriveSigningKey(PREVIOUS);
    expect(set.current.kid).toBe(current.kid);
    expect([...set.byKid.keys()]).toEqual([current.kid, previous.kid]);
    expect(set.jwks.keys.map((k) => k.kid)).toEqual([current.kid, previous.kid]);
    expect(set.cursorKeys).toEqual([deriveCursorKey(CURRENT), deriveCursorKey(PREVIOUS)]);
  });

  it('before the first rotation there is no previous version: the current one alone', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: awsError('ResourceNotFoundException') });
    const set = await loadSigningKeys(config);
    expect([...set.byKid.keys()]).toEqual([deriveSigningKey(CURRENT).kid]);
    expect(set.cursorKeys).toHaveLength(1);
  });

  it('a previous version without a string is left out', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: undefined });
    expect([...(await loadSigningKeys(config)).byKid.keys()]).toEqual([deriveSigningKey(CURRENT).kid]);
  });

  it('any other failure reading the previous version fails the load (no silent loss of verification)', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: awsError('AccessDeniedException') });
    await expect(loadSigningKeys(config)).rejects.toThrow('AccessDeniedException');
  });

  it('an empty or binary current secret is refused', async () => {
    secretsManagerAnswers({ AWSCURRENT: '', AWSPREVIOUS: PREVIOUS });
    await expect(loadSigningKeys(config)).rejects.toThrow('The signing key secret is empty');
    vi.restoreAllMocks();
    secretsManagerAnswers({ AWSCURRENT: undefined, AWSPREVIOUS: PREVIOUS });
    await expect(loadSigningKeys(config)).rejects.toThrow('The signing key secret is empty');
  });

  it('a key set needs at least one seed', async () => {
    await expect(buildSigningKeySet([])).rejects.toThrow('No signing key material');
  });
});
