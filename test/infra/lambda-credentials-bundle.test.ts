/**
 * The Lambda bundles (infra/bundle-options.ts settings) use the environment credentials and
 * leave the SDK's default chain out: no INI/SSO/process/IMDS providers, no nested STS/SSO
 * clients. Checked on a real handler's metafile, and by running a bundled DynamoDB client:
 * it signs with the environment's credentials and fails with the SDK's error without them.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions } from '../../infra/bundle-options';
import { makeBundleBuildDir, removeBundleBuildDir } from '../support/bundle-build-dir';

const run = promisify(execFile);
const LEFT_OUT = ['@aws-sdk/credential-provider-node', '@aws-sdk/credential-provider-ini', '@aws-sdk/credential-provider-sso', '@aws-sdk/credential-provider-process', '@aws-sdk/nested-clients', '@smithy/credential-provider-imds'];

describe('Lambda bundle credentials', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeBundleBuildDir('credentials-test-');
  });
  afterAll(() => {
    removeBundleBuildDir(dir);
  });

  it('leaves the default credential chain out of a handler bundle that carries SDK clients (the provider callers)', async () => {
    const result = await build({ ...lambdaBuildOptions('connections-test'), write: false, metafile: true, outdir: dir });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('node_modules/@aws-sdk/client-sts/'))).toBe(true);
    expect(inputs).toContain('infra/lambda-credentials.ts');
    expect(inputs.filter((input) => LEFT_OUT.some((pkg) => input.includes(`node_modules/${pkg}/`)))).toEqual([]);
  });

  it('bundles no SDK client at all in a function that only reaches Tessera\'s own AWS services (shared/aws/)', async () => {
    const result = await build({ ...lambdaBuildOptions('me-get'), write: false, metafile: true, outdir: dir });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /node_modules\/@aws-sdk\/client-/.test(input))).toEqual([]);
    expect(inputs.filter((input) => LEFT_OUT.some((pkg) => input.includes(`node_modules/${pkg}/`)))).toEqual([]);
  });

  it('signs with the environment credentials, and fails with the SDK error without them', async () => {
    const entry = path.join(dir, 'probe.ts');
    writeFileSync(
      entry,
      [
        "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
        "const client = new DynamoDBClient({ region: 'eu-west-1' });",
        'export const handler = async () => client.config.credentials();',
        'try { console.log(JSON.stringify(await handler())); } catch (error) { console.log(JSON.stringify({ error: (error as Error).name, message: (error as Error).message })); }',
      ].join('\n'),
    );
    await build({ ...lambdaBuildOptions('health'), entryPoints: [entry], outfile: path.join(dir, 'probe.mjs') });
    const probe = async (env: Record<string, string>) => {
      const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
      const { stdout } = await run(process.execPath, [path.join(dir, 'probe.mjs')], { env: { ...clean, ...env } });
      return JSON.parse(stdout) as Record<string, string>;
    };
    expect(await probe({ AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' })).toMatchObject({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' });
    expect(await probe({})).toEqual({ error: 'CredentialsProviderError', message: expect.stringMatching(/environment variable credentials/) });
  });
});
