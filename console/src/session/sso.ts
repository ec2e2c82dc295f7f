/**
 * SSO round trips from the browser. Sign-in: this client makes its own `state` and PKCE pair
 * (RFC 7636, S256), sends the user to the tenant's start URL with them, and on the way back
 * checks the state and exchanges the single-use `sso_code` with the verifier
 * (`POST /v1/auth/token`). Linking an IdP account to the signed-in user
 * (`POST /v1/me/federated-identities/link`) carries only the `state`: its answer is no code to
 * exchange but `?linked=true` (or `?error=`), and what is linked is read back from the API.
 * Both come back to the same return path (the one admins put on the IdP's redirect URI list);
 * the pending round trip, in sessionStorage because it leaves this page, says which it was.
 */
import { SSO_CALLBACK_PATH } from '../../../shared/console-paths';

const PENDING_KEY = 'tessera.sso_pending';


export type PendingSso = { purpose: 'sign-in'; verifier: string } | { purpose: 'link' };

function randomUrlSafe(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  return base64Url(buffer);
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function ssoReturnUrl(): string {
  return new URL(SSO_CALLBACK_PATH, window.location.origin).href;
}

export async function beginSsoSignIn(tenant: string, startUrl: string): Promise<void> {
  const state = randomUrlSafe(24);
  const verifier = randomUrlSafe(48);
  const challenge = base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ purpose: 'sign-in', tenant, state, verifier }));
  const target = new URL(startUrl, window.location.origin);
  target.searchParams.set('redirect_uri', ssoReturnUrl());
  target.searchParams.set('state', state);
  target.searchParams.set('code_challenge', challenge);
  target.searchParams.set('code_challenge_method', 'S256');
  window.location.assign(target.href);
}

/**
 * A `state` for a link about to start, remembered for this tab; the caller sends it with the
 * link request. `forgetSsoLink` drops it again when the request is refused.
 */
export function prepareSsoLink(): string {
  const state = randomUrlSafe(24);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ purpose: 'link', state }));
  return state;
}

export function forgetSsoLink(): void {
  sessionStorage.removeItem(PENDING_KEY);
}

/**
 * The round trip this tab began, when `state` is the one it sent (an answer to a login or link
 * begun elsewhere is refused: login CSRF); used once.
 */
export function takePendingSso(state: string | null): PendingSso | undefined {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!raw || !state) return undefined;
  const pending = JSON.parse(raw) as { purpose?: 'sign-in' | 'link'; state: string; verifier?: string };
  if (pending.state !== state) return undefined;
  if (pending.purpose === 'link') return { purpose: 'link' };
  return pending.verifier ? { purpose: 'sign-in', verifier: pending.verifier } : undefined;
}
