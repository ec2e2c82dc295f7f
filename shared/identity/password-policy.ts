/**
 * Password rules (API.md): 12 to 128 characters, no composition rules (NIST SP 800-63B),
 * and not one of the common or breached passwords of the bundled list.
 */
import { ValidationError } from '../errors';
import { isCommonPassword } from './common-passwords';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

export function assertAcceptablePassword(password: string, path = 'password'): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) throw new ValidationError([{ path, message: `must be at least ${PASSWORD_MIN_LENGTH} characters` }]);
  if (length > PASSWORD_MAX_LENGTH) throw new ValidationError([{ path, message: `must be at most ${PASSWORD_MAX_LENGTH} characters` }]);
  if (isCommonPassword(password)) throw new ValidationError([{ path, message: 'is too common; choose a password that is not on lists of breached passwords' }]);
}
