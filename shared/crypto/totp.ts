/**
 * RFC 6238 TOTP with otplib: SHA-1, 6 digits, 30 s steps, one step of skew either way.
 * otplib does not remember used codes; callers store the returned `timeStep` and pass it back
 * as `afterTimeStep`, so a code (or an earlier one) is never accepted twice.
 */
import { generate, generateSecret, generateURI, verify } from 'otplib';

export const TOTP_PERIOD_SECONDS = 30;
const SKEW_SECONDS = TOTP_PERIOD_SECONDS; // ±1 step

/** 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const generateTotpSecret = (): string => generateSecret({ length: 20 });

export const totpUri = (input: { issuer: string; account: string; secret: string }): string =>
  generateURI({ issuer: input.issuer, label: input.account, secret: input.secret, algorithm: 'sha1', digits: 6, period: TOTP_PERIOD_SECONDS });

export const totpCode = (secret: string, epochSeconds: number): Promise<string> => generate({ secret, epoch: epochSeconds, period: TOTP_PERIOD_SECONDS });

/** The time step the code belongs to, or undefined when it is wrong, too old, or not after `afterTimeStep`. */
export async function verifyTotp(input: { secret: string; code: string; epochSeconds: number; afterTimeStep?: number | undefined }): Promise<number | undefined> {
  // verify() returns an object; its `valid` field is the verdict (the object itself is always truthy).
  const result = await verify({
    secret: input.secret,
    token: input.code,
    epoch: input.epochSeconds,
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: SKEW_SECONDS,
    ...(input.afterTimeStep !== undefined ? { afterTimeStep: input.afterTimeStep } : {}),
  });
  if (!result.valid) return undefined;
  // The declared union also covers HOTP results, which carry no time step; TOTP's always do.
  return 'timeStep' in result ? result.timeStep : undefined;
}
