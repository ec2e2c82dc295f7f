/**
 * An empty `/api/v1/users` list from Okta is an answer to be checked, not believed: an API token
 * acts with the rights of the admin who created it, and when that user holds no admin role (it
 * was removed after the token was made) Okta answers the list with 200 and no users, where a
 * sweep would take it for an org whose every person left.
 *
 * The check reads who the token acts for (`GET /api/v1/users/me`) and that user's admin role
 * assignments (`GET /api/v1/users/{id}/roles`); only a roles answer that lists none makes the
 * empty list a refusal. Anything else (the roles may not be read, an odd answer) leaves the list
 * as it was answered: the check never refuses on a guess.
 */
import type { RemediationItem } from '../connector';
import { callProvider, stringField } from '../provider-http';

export interface OktaCall {
  base: string;
  apiToken: string;
  signal: AbortSignal;
  /** Waits before each request (a discovery run's pacer); the connection test sends at once. */
  pace?: () => Promise<void>;
}

/** The remediation when the token's user holds no admin role; undefined when it does or cannot be told. */
export async function tokenWithoutAdminRole(call: OktaCall): Promise<RemediationItem | undefined> {
  const headers = { authorization: `SSWS ${call.apiToken}` };
  await call.pace?.();
  const me = await callProvider(`${call.base}/api/v1/users/me`, { headers, signal: call.signal });
  if (me.kind !== 'answer' || me.status !== 200) return undefined;
  const id = stringField(me.body, 'id');
  if (!id) return undefined;
  await call.pace?.();
  const roles = await callProvider(`${call.base}/api/v1/users/${encodeURIComponent(id)}/roles`, { headers, signal: call.signal });
  if (roles.kind !== 'answer' || roles.status !== 200 || !Array.isArray(roles.body) || roles.body.length > 0) return undefined;
  return noAdminRole(stringField(me.body, 'profile', 'login') ?? id);
}

export function noAdminRole(login: string): RemediationItem {
  return {
    category: 'permissions',
    message: `The API token acts for ${login}, who holds no admin role, so Okta answers its user list empty (HTTP 200 with no users).`,
    action:
      `Assign the Read-Only Administrator role (READ_ONLY_ADMIN) to ${login} (Security > Administrators > Add administrator): an API token acts with its creator's admin permissions. ` +
      `Or create a new API token while signed in as an admin who holds that role, and update the connection's configuration. Until then discovery keeps the users it read before.`,
  };
}
