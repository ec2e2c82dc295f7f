/**
 * Membership test against the bundled list of common/breached passwords.
 * (The full list arrives with the password-lifecycle issue; until then a short seed list.)
 */
const SEED = ['password1234', '123456789012', 'qwertyuiop12', 'passwordpassword', 'iloveyou1234', 'changeme1234', 'letmein12345', 'administrator'];
const list = new Set(SEED);

export function isCommonPassword(password: string): boolean {
  return list.has(password.toLowerCase());
}
