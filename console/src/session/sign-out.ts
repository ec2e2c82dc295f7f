/**
 * Ending the session: the API revokes the refresh token's family (so no copy of it outlives
 * the tab's session), then the tokens are forgotten here. The shell's "Sign out" and a new
 * sign-in through the IdP for a fresh MFA (the step-up prompt) both end the session this way.
 */
import { api } from '../api/client';
import { send } from '../api/send';
import { session } from './session';

export async function endSession(): Promise<void> {
  const refreshToken = session.refreshToken();
  if (refreshToken) await send(() => api.POST('/v1/auth/logout', { body: { refresh_token: refreshToken } }));
  session.signOut();
}
