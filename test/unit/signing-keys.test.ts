/**
 * Key material from Secrets Manager (its client's `send` stubbed): issuers read the signing
 * seed's current version only (verifiers never read it: they use the published public keys);
 * cursor keys come from a secret of their own, whose previous version still opens cursors.
 */
import { SecretsManagerClient, type GetSecretValueCommand, type GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deriveCursorKey, loadCursorKeys } from '../../shared/crypto/cursor-keys';
import { deriveSigningKey, kidOf, publicJwkOf, publicKeyOf } from '../../shared/crypto/signing-keys';
import { readCurrentSigningSeed } from '../../shared/crypto/signing-seeds';

const signingConfig = { signingKeys: { kind: 'secrets-manager' as const, secretArn: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:tessera-jwt' }, region: 'us-east-1' };
const cursorConfig = { cursorKeys: { kind: 'secrets-manager' as const, secretArn: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:tessera-cursor' }, region: 'us-east-1' };
const CURRENT = 'current-seed-0123456789abcdefghijklmnop';
const PREVIOUS = 'previous-seed-0123456789abcdefghijklmnop';

const awsError = (name: string) => Object.assign(new Error(name), { name });

/** Secrets Manager answers by version stage: a string is the secret, an Error is thrown. Returns the stages asked for. */
function secretsManagerAnswers(byStage: Record<string, string | undefined | Error>): string[] {
  const asked: string[] = [];
  const send = (command: GetSecretValueCommand): Promise<Partial<GetSecretValueCommandOutput>> => {
    asked.push(command.input.VersionStage!);
    const answer = byStage[command.input.VersionStage!];
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer === undefined ? {} : { SecretString: answer });
  };
  // The client is made inside the loader: its prototype's send is the seam.
  vi.spyOn(SecretsManagerClient.prototype, 'send').mockImplementation(send as unknown as () => void);
  return asked;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the signing seed (issuers only)', () => {
  it('is the current version alone: a previous seed signs nothing and verifies nothing', async () => {
    const asked = secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: PREVIOUS });
    expect(await readCurrentSigningSeed(signingConfig)).toBe(CURRENT);
    expect(asked).toEqual(['AWSCURRENT']);
  });

  it('an empty or binary current secret is refused', async () => {
    secretsManagerAnswers({ AWSCURRENT: '' });
    await expect(readCurrentSigningSeed(signingConfig)).rejects.toThrow('The signing key secret is empty');
    vi.restoreAllMocks();
    secretsManagerAnswers({ AWSCURRENT: undefined });
    await expect(readCurrentSigningSeed(signingConfig)).rejects.toThrow('The signing key secret is empty');
  });

  it('derives a stable key whose published half is public only and gives back the same key id', async () => {
    const key = deriveSigningKey(CURRENT);
    expect(deriveSigningKey(CURRENT).kid).toBe(key.kid);
    expect(deriveSigningKey(PREVIOUS).kid).not.toBe(key.kid);
    const jwk = await publicJwkOf(key.publicKey);
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x']);
    expect(kidOf(publicKeyOf(jwk))).toBe(key.kid);
    // A stored JWK that carries a private member still yields only a public key.
    const { d } = key.privateKey.export({ format: 'jwk' });
    expect(publicKeyOf({ ...jwk, d } as typeof jwk).type).toBe('public');
  });
});

describe('cursor keys', () => {
  it('come from their own secret: the current version seals, the previous one still opens', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: PREVIOUS });
    expect(await loadCursorKeys(cursorConfig)).toEqual([deriveCursorKey(CURRENT), deriveCursorKey(PREVIOUS)]);
  });

  it('before the first rotation there is no previous version: the current one alone', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: awsError('ResourceNotFoundException') });
    expect(await loadCursorKeys(cursorConfig)).toEqual([deriveCursorKey(CURRENT)]);
  });

  it('a previous version without a string is left out', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: undefined });
    expect(await loadCursorKeys(cursorConfig)).toHaveLength(1);
  });

  it('any other failure reading the previous version fails the load (no silent loss of cursors)', async () => {
    secretsManagerAnswers({ AWSCURRENT: CURRENT, AWSPREVIOUS: awsError('AccessDeniedException') });
    await expect(loadCursorKeys(cursorConfig)).rejects.toThrow('AccessDeniedException');
  });

  it('an empty current secret is refused', async () => {
    secretsManagerAnswers({ AWSCURRENT: '', AWSPREVIOUS: PREVIOUS });
    await expect(loadCursorKeys(cursorConfig)).rejects.toThrow('The cursor key secret is empty');
  });
});
