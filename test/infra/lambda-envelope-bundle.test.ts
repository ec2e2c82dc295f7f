/**
 * The envelope crypto as the Lambda bundles carry it (infra/bundle-options.ts settings: Node's
 * own streams in place of `readable-stream`, the environment credentials, the Encryption SDK
 * without its signing suites): bundled, run in a child process, it seals and opens with the
 * local keyring and with the KMS keyring against a local KMS (a message of several frames too,
 * whose frame lengths go through infra/lambda-bn.ts), a ciphertext moved to another object does
 * not open, and a message with a signing suite, which the unbundled SDK opens, is refused.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { buildEncrypt } from '@aws-crypto/encrypt-node';
import { AlgorithmSuiteIdentifier, CommitmentPolicy } from '@aws-crypto/material-management-node';
import { RawAesKeyringNode, RawAesWrappingSuiteIdentifier } from '@aws-crypto/raw-aes-keyring-node';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions, projectRoot } from '../../infra/bundle-options';
import { createEnvelopeCrypto } from '../../shared/crypto/envelope-encryption-sdk';
import { TEST_CREDENTIALS } from '../support/aws-wire/caller';
import { startKmsServer, type KmsServer } from '../support/aws-wire/kms-server';
import { makeBundleBuildDir, removeBundleBuildDir } from '../support/bundle-build-dir';

const run = promisify(execFile);

describe('Lambda bundle of the envelope crypto', () => {
  let dir: string;
  let kms: KmsServer;
  beforeAll(async () => {
    dir = makeBundleBuildDir('envelope-test-');
    kms = await startKmsServer();
  });
  afterAll(async () => {
    await kms?.close();
    removeBundleBuildDir(dir);
  });

  it('carries Node streams, not readable-stream, nor the signing suites, and seals and opens with both keyrings', async () => {
    // A message as a writer with a signing suite would make it (the SDK's default suite), with a raw key the probe gets too.
    // Hex: the keyring takes its key buffer over (and wipes it), so each keyring gets a buffer of its own.
    const rawKey = randomBytes(32).toString('hex');
    const rawKeyring = (hex: string) => new RawAesKeyringNode({ keyName: 'probe', keyNamespace: 'tessera-test', unencryptedMasterKey: new Uint8Array(Buffer.from(hex, 'hex')), wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING });
    const signingEncrypt = buildEncrypt(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT).encrypt;
    const signedContext = { tenant_id: 'ten_a' };
    const { result: signedMessage, messageHeader } = await signingEncrypt(rawKeyring(rawKey), 'signed secret', { suiteId: AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY_ECDSA_P384, encryptionContext: signedContext });
    expect(messageHeader.suiteId).toBe(AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY_ECDSA_P384);
    const signed = signedMessage.toString('base64');
    // Several frames, each with its length in the AAD, between the bundle and the unbundled SDK both ways.
    const large = 'frame '.repeat(2000);
    const unbundledRaw = createEnvelopeCrypto(rawKeyring(rawKey), 'probe');
    const framedBySdk = await unbundledRaw.encrypt(large, signedContext);
    // The unbundled SDK opens it: what the bundle refuses is a message it could otherwise read.
    await expect(createEnvelopeCrypto(rawKeyring(rawKey), 'probe').decrypt(signed, signedContext)).resolves.toBe('signed secret');

    const entry = path.join(dir, 'probe.ts');
    const sdk = path.relative(dir, path.join(projectRoot, 'shared', 'crypto', 'envelope-encryption-sdk')).split(path.sep).join('/');
    const envelope = path.relative(dir, path.join(projectRoot, 'shared', 'crypto', 'envelope')).split(path.sep).join('/');
    writeFileSync(
      entry,
      [
        "import { RawAesKeyringNode, RawAesWrappingSuiteIdentifier } from '@aws-crypto/raw-aes-keyring-node';",
        `import { createEnvelopeCrypto } from '${sdk}';`,
        `import { loadEnvelopeCrypto } from '${envelope}';`,
        "const context = { tenant_id: 'ten_a', workspace_id: 'ws_a', connection_id: 'conn_a' };",
        'const [keyFile, endpoint, keyArn, rawKeyHex, signed] = process.argv.slice(2);',
        "const large = 'frame '.repeat(2000);",
        "const [framedBySdk] = process.argv.slice(7);",
        "const local = await loadEnvelopeCrypto({ envelopeKey: { kind: 'file', path: keyFile! }, region: 'eu-west-1', awsEndpoints: { kms: undefined } });",
        "const viaKms = await loadEnvelopeCrypto({ envelopeKey: { kind: 'kms', keyArn: keyArn! }, region: 'eu-west-1', awsEndpoints: { kms: endpoint } });",
        'const results: Record<string, string> = {};',
        'for (const [name, crypto] of Object.entries({ local, kms: viaKms })) {',
        "  const sealed = await crypto.encrypt('the secret', context);",
        '  results[name] = await crypto.decrypt(sealed, context);',
        "  results[`${name}-moved`] = await crypto.decrypt(sealed, { ...context, connection_id: 'conn_b' }).then(() => 'opened', (error: Error) => error.name);",
        '  results[`${name}-frames`] = String((await crypto.decrypt(await crypto.encrypt(large, context), context)) === large);',
        '}',
        "const raw = new RawAesKeyringNode({ keyName: 'probe', keyNamespace: 'tessera-test', unencryptedMasterKey: new Uint8Array(Buffer.from(rawKeyHex!, 'hex')), wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING });",
        "const bundledRaw = createEnvelopeCrypto(raw, 'probe');",
        "results.signed = await bundledRaw.decrypt(signed!, { tenant_id: 'ten_a' }).then(() => 'opened', () => 'refused');",
        "results['frames-from-sdk'] = String((await bundledRaw.decrypt(framedBySdk!, { tenant_id: 'ten_a' })) === large);",
        "results['frames-for-sdk'] = await bundledRaw.encrypt(large, { tenant_id: 'ten_a' });",
        'console.log(JSON.stringify(results));',
      ].join('\n'),
    );
    const result = await build({ ...lambdaBuildOptions('connections-create'), entryPoints: [entry], outfile: path.join(dir, 'probe.mjs'), metafile: true });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('infra/lambda-readable-stream.ts');
    expect(inputs.filter((input) => input.includes('node_modules/readable-stream/'))).toEqual([]);
    expect(inputs.some((input) => input.includes('node_modules/@aws-crypto/encrypt-node/'))).toBe(true);
    expect(inputs.filter((input) => /node_modules\/(asn1\.js|bn\.js)\//.test(input))).toEqual([]);
    expect(inputs).toContain('infra/lambda-bn.ts');

    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
    const { stdout } = await run(process.execPath, [path.join(dir, 'probe.mjs'), path.join(dir, 'envelope-key.json'), kms.endpoint, kms.keyArn, rawKey, signed, framedBySdk], {
      env: { ...clean, AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    const { 'frames-for-sdk': framedByBundle, ...results } = JSON.parse(stdout) as Record<string, string>;
    await expect(unbundledRaw.decrypt(framedByBundle!, signedContext)).resolves.toBe(large);
    expect(results).toEqual({
      local: 'the secret',
      'local-moved': 'EncryptionContextMismatchError',
      'local-frames': 'true',
      kms: 'the secret',
      'kms-moved': 'EncryptionContextMismatchError',
      'kms-frames': 'true',
      signed: 'refused',
      'frames-from-sdk': 'true',
    });
    expect(kms.calls.map((call) => call.operation)).toEqual(['GenerateDataKey', 'Decrypt', 'Decrypt', 'GenerateDataKey', 'Decrypt']);
  });
});
