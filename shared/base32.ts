/**
 * Base32 (5 bits a character, most significant first, no padding) over a given alphabet: RFC
 * 4648's for TOTP secrets, which authenticator apps read, and Crockford's lower case for the
 * ids of the inventory.
 */
export const RFC4648_BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const CROCKFORD_BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

export function base32Encode(bytes: Uint8Array, alphabet: string): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of `text` (`=` padding ignored); throws on a character not in the alphabet. */
export function base32Decode(text: string, alphabet: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/=+$/, '')) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error('Not base32');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}
