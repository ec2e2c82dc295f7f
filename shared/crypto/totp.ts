/**
 * RFC 6238 TOTP: HMAC-SHA-1, 6 digits, 30 s steps, one step of skew either way, on node:crypto.
 * (It was otplib, whose pure-JS hashes were ~25 KiB of each MFA function's bundle; the unit test
 * still holds this module to otplib and to RFC 6238's own vectors.) Nothing here remembers used
 * codes: callers store the returned time step and pass it back as `afterTimeStep`, so a code (or
 * an earlier one) is never accepted twice.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RFC4648_BASE32, base32Decode, base32Encode } from '../base32';

export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
const SKEW_STEPS = 1;
/** RFC 4226 HOTP of one counter value: HMAC-SHA-1, dynamic truncation, the low-order digits. */
function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0');
}

/** A secret as enrolled (RFC 4648 base32), in any case, as authenticator apps accept it. */
const secretBytes = (secret: string) => base32Decode(secret.toUpperCase(), RFC4648_BASE32);

const stepOf = (epochSeconds: number) => Math.floor(epochSeconds / TOTP_PERIOD_SECONDS);

/** 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const generateTotpSecret = (): string => base32Encode(randomBytes(20), RFC4648_BASE32);

/** The `otpauth://` URI of Google Authenticator's key URI format (SHA-1, 6 digits and 30 s are its defaults). */
export const totpUri = (input: { issuer: string; account: string; secret: string }): string =>
  `otpauth://totp/${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}?secret=${input.secret}&issuer=${encodeURIComponent(input.issuer)}`;

export const totpCode = (secret: string, epochSeconds: number): Promise<string> => Promise.resolve(hotp(secretBytes(secret), stepOf(epochSeconds)));

/** The time step the code belongs to, or undefined when it is wrong, too old, or not after `afterTimeStep`. */
export function verifyTotp(input: { secret: string; code: string; epochSeconds: number; afterTimeStep?: number | undefined }): Promise<number | undefined> {
  if (!/^\d{6}$/.test(input.code)) return Promise.resolve(undefined);
  const key = secretBytes(input.secret);
  const code = Buffer.from(input.code);
  const current = stepOf(input.epochSeconds);
  let matched: number | undefined;
  // Every step of the window is computed and compared, whichever matches, so the time taken
  // says nothing about which step (or whether any) matched.
  for (let step = current - SKEW_STEPS; step <= current + SKEW_STEPS; step++) {
    const equal = timingSafeEqual(Buffer.from(hotp(key, step)), code);
    if (equal && matched === undefined && (input.afterTimeStep === undefined || step > input.afterTimeStep)) matched = step;
  }
  return Promise.resolve(matched);
}
