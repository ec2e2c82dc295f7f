/**
 * Membership test against the bundled list of common/breached passwords (see
 * `password-list/README.md` for its source and licence). The set is built on first use so that
 * functions that never check a new password do not pay for it at cold start.
 */
import { commonPasswordList } from './password-list/list';

let list: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  list ??= new Set(commonPasswordList.split('\n'));
  return list.has(password.toLowerCase());
}
