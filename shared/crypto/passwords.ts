/**
 * Password hashing with Argon2id at the OWASP parameters (m = 19 MiB, t = 2, p = 1).
 * A hash made with other parameters still verifies and is reported for rehashing, so raising
 * the parameters upgrades users at their next login.
 */
import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id`; the package exports it as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

export const passwordHashParameters = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const currentParameterString = `m=${passwordHashParameters.memoryCost},t=${passwordHashParameters.timeCost},p=${passwordHashParameters.parallelism}`;

export function hashPassword(password: string): Promise<string> {
  return hash(password, passwordHashParameters);
}

export interface PasswordCheck {
  valid: boolean;
  needsRehash: boolean;
}

export async function verifyPassword(storedHash: string, password: string): Promise<PasswordCheck> {
  let valid = false;
  try {
    valid = await verify(storedHash, password);
  } catch {
    valid = false;
  }
  return { valid, needsRehash: valid && !(storedHash.startsWith('$argon2id$') && storedHash.includes(`$${currentParameterString}$`)) };
}

let dummyHash: Promise<string> | undefined;

/**
 * Spend the same work as a real verification when there is no account to check, so the
 * answer time does not reveal whether an email exists.
 */
export async function burnPasswordVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword('tessera-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
}
