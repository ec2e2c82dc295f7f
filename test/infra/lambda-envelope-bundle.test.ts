/**
 * The envelope crypto as the Lambda bundles carry it (infra/bundle-options.ts settings: Node's
 * own streams in place of `readable-stream`, the environment credentials): bundled, run in a
 * child process, it seals and opens with the local keyring and with the KMS keyring against a
 * local KMS, and a ciphertext moved to another object does not open.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions, projectRoot } from '../../infra/bundle-options';
import { startFakeKms, type FakeKms } from '../support/fake-kms';

const run = promisify(execFile);

describe('Lambda bundle of the envelope crypto', () => {
  let dir: string;
  let kms: FakeKms;
  beforeAll(async () => {
    mkdirSync(path.join(projectRoot, 'bench', '.build'), { recursive: true });
    dir = mkdtempSync(path.join(projectRoot, 'bench', '.build', 'envelope-test-'));
    kms = await startFakeKms();
  });
  afterAll(async () => {
    await kms?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('carries Node streams, not readable-stream, and seals and opens with both keyrings', async () => {
    const entry = path.join(dir, 'probe.ts');
    const sdk = path.relative(dir, path.join(projectRoot, 'shared', 'crypto', 'envelope-encryption-sdk')).split(path.sep).join('/');
    const envelope = path.relative(dir, path.join(projectRoot, 'shared', 'crypto', 'envelope')).split(path.sep).join('/');
    writeFileSync(
      entry,
      [
        "import { KMSClient } from '@aws-sdk/client-kms';",
        `import { createEnvelopeCrypto, kmsKeyring } from '${sdk}';`,
        `import { loadEnvelopeCrypto } from '${envelope}';`,
        "const context = { tenant_id: 'ten_a', workspace_id: 'ws_a', connection_id: 'conn_a' };",
        'const [keyFile, endpoint, keyArn] = process.argv.slice(2);',
        "const local = await loadEnvelopeCrypto({ envelopeKey: { kind: 'file', path: keyFile! }, region: 'eu-west-1' });",
        "const viaKms = createEnvelopeCrypto(kmsKeyring(keyArn!, 'eu-west-1', new KMSClient({ region: 'eu-west-1', endpoint })), keyArn!);",
        'const results: Record<string, string> = {};',
        'for (const [name, crypto] of Object.entries({ local, kms: viaKms })) {',
        "  const sealed = await crypto.encrypt('the secret', context);",
        '  results[name] = await crypto.decrypt(sealed, context);',
        "  results[`${name}-moved`] = await crypto.decrypt(sealed, { ...context, connection_id: 'conn_b' }).then(() => 'opened', (error: Error) => error.name);",
        '}',
        'console.log(JSON.stringify(results));',
      ].join('\n'),
    );
    const result = await build({ ...lambdaBuildOptions('connections-create'), entryPoints: [entry], outfile: path.join(dir, 'probe.mjs'), metafile: true });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('infra/lambda-readable-stream.ts');
    expect(inputs.filter((input) => input.includes('node_modules/readable-stream/'))).toEqual([]);
    expect(inputs.some((input) => input.includes('node_modules/@aws-crypto/encrypt-node/'))).toBe(true);

    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
    const { stdout } = await run(process.execPath, [path.join(dir, 'probe.mjs'), path.join(dir, 'envelope-key.json'), kms.endpoint, kms.keyArn], {
      env: { ...clean, AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    expect(JSON.parse(stdout)).toEqual({ local: 'the secret', 'local-moved': 'EncryptionContextMismatchError', kms: 'the secret', 'kms-moved': 'EncryptionContextMismatchError' });
    expect(kms.calls).toEqual(['GenerateDataKey', 'Decrypt', 'Decrypt']);
  });
});
