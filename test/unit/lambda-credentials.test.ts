/**
 * The replacement of the SDK's default credential chain in Lambda bundles
 * (infra/lambda-credentials.ts): the environment credentials, or the SDK's own error.
 */
import { CredentialsProviderError } from '@smithy/core/config';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { credentialsTreatedAsExpired, defaultProvider } from '../../infra/lambda-credentials';

const LAMBDA_ENV = { AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret/example', AWS_SESSION_TOKEN: 'session-example' };

describe('Lambda credentials provider', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('returns the credentials the Lambda runtime puts in the environment', async () => {
    for (const [name, value] of Object.entries(LAMBDA_ENV)) vi.stubEnv(name, value);
    const debug = vi.fn();
    const credentials = await defaultProvider({ logger: { debug, info: vi.fn(), warn: vi.fn(), error: vi.fn() } })();
    expect(credentials).toMatchObject({ accessKeyId: 'ASIAEXAMPLEEXAMPLE', secretAccessKey: 'secret/example', sessionToken: 'session-example' });
    expect(debug).toHaveBeenCalled(); // the client's logger reaches the provider, as with the default chain
    expect(credentialsTreatedAsExpired(credentials)).toBe(false);
  });

  it('fails with the SDK credentials error, not a crash, when the environment has none', async () => {
    for (const name of Object.keys(LAMBDA_ENV)) vi.stubEnv(name, undefined);
    const attempt = defaultProvider()();
    await expect(attempt).rejects.toBeInstanceOf(CredentialsProviderError);
    await expect(attempt).rejects.toThrow(/environment variable credentials/);
  });
});
