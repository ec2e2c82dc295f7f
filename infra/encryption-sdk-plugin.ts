/**
 * An esbuild plugin for the Lambda bundles: the Encryption SDK without the code of its signing
 * suites. Tessera encrypts with one suite only, committing and unsigned
 * (`ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY`, shared/crypto/envelope-encryption-sdk.ts,
 * with `REQUIRE_ENCRYPT_REQUIRE_DECRYPT` and no signature), and decrypts only what it encrypted.
 * The SDK still imports its ECDSA support unconditionally: point compression on two curves
 * (computed at import), PEM and DER encoders, which pull `asn1.js` and `bn.js` (~110 KiB of a
 * bundle, and their import time). Here those four modules become stubs that fail loudly, so a
 * message with a signing suite is refused with an error instead of being processed; and the
 * serializer's one remaining use of `bn.js`, the 64-bit frame length, gets a BigInt
 * (infra/lambda-bn.ts). test/infra/lambda-envelope-bundle.test.ts runs the bundled envelope both
 * ways and checks that a signed message is refused.
 */
import type { Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The SDK modules that exist only for signing suites, in its CommonJS and ESM builds. */
const SIGNING_MODULE = /[\\/]@aws-crypto[\\/](material-management|serialize)[\\/]build[\\/](main|module)[\\/]src[\\/](ecc_decode|ecc_encode|pem_helpers|ecdsa_signature)\.js$/;
const SERIALIZER = /[\\/]@aws-crypto[\\/]serialize[\\/]/;

const unsupported = "throw new Error('Tessera bundles the Encryption SDK without signing suites (infra/encryption-sdk-plugin.ts)')";

/** Each stub keeps its module's exports: the curve tables empty (the SDK then refuses the curve), the encoders throwing. */
const STUBS: Readonly<Record<string, string>> = {
  ecc_decode: 'export const decodeNamedCurves = Object.freeze({});',
  ecc_encode: 'export const encodeNamedCurves = Object.freeze({});',
  pem_helpers: `export function publicKeyPem() { ${unsupported} }\nexport function privateKeyPem() { ${unsupported} }\nexport function chunk64() { ${unsupported} }`,
  ecdsa_signature: `export function der2raw() { ${unsupported} }\nexport function raw2der() { ${unsupported} }`,
};

export const BIG_NUMBER_SHIM = fileURLToPath(new URL('./lambda-bn.ts', import.meta.url));

export const encryptionSdkWithoutSigning: Plugin = {
  name: 'encryption-sdk-without-signing',
  setup(build) {
    build.onLoad({ filter: SIGNING_MODULE }, (args) => {
      const name = SIGNING_MODULE.exec(args.path)![3]!;
      return { contents: STUBS[name], loader: 'js' };
    });
    build.onResolve({ filter: /^bn\.js$/ }, (args) => (SERIALIZER.test(args.importer) ? { path: BIG_NUMBER_SHIM } : undefined));
  },
};
