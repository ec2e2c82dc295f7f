/**
 * What the Lambda bundles give the Encryption SDK's message serializer in place of `bn.js`
 * (infra/encryption-sdk-plugin.ts resolves it so for `@aws-crypto/serialize` only). The
 * serializer needs a big number for one thing: the 64-bit content length of a frame, written
 * (`new BN(n).toArray('be', 8)`) and read back (`new BN(bytes, 16, 'be').toNumber()`). A
 * BigInt does that; bn.js is 44 KiB of a bundle for it. bn.js's limits are kept: `toNumber`
 * refuses more than 53 bits, `toArray` a number longer than the length asked for, with the
 * same messages; a negative number (which a length never is) is refused too.
 * test/unit/lambda-bn.test.ts holds it to what bn.js answers; test/infra/lambda-envelope-bundle.test.ts
 * exchanges messages of several frames between a bundle and the unbundled SDK.
 */
export default class BN {
  readonly #value: bigint;

  constructor(number: number | ArrayLike<number>, _base?: number, endian: 'be' | 'le' = 'be') {
    if (typeof number === 'number') {
      if (!Number.isSafeInteger(number) || number < 0) throw new Error('Assertion failed');
      this.#value = BigInt(number);
      return;
    }
    const bytes = Array.from(number);
    if (endian === 'le') bytes.reverse();
    this.#value = bytes.reduce((value, byte) => (value << 8n) | BigInt(byte & 0xff), 0n);
  }

  toNumber(): number {
    if (this.#value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('Number can only safely store up to 53 bits');
    return Number(this.#value);
  }

  toArray(endian: 'be' | 'le' = 'be', length?: number): number[] {
    const bytes: number[] = [];
    for (let rest = this.#value; rest > 0n; rest >>= 8n) bytes.unshift(Number(rest & 0xffn));
    if (bytes.length === 0) bytes.push(0);
    if (length !== undefined) {
      if (bytes.length > length) throw new Error('byte array longer than desired length');
      bytes.unshift(...new Array<number>(length - bytes.length).fill(0));
    }
    return endian === 'le' ? bytes.reverse() : bytes;
  }
}
