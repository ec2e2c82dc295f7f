/**
 * SSO sign-in from the browser: this client makes its own `state` and PKCE pair (RFC 7636,
 * S256), sends the user to the tenant's start URL with them, and on the way back checks the
 * state and exchanges the single-use `sso_code` with the verifier (`POST /v1/auth/token`).
 * The pair waits in sessionStorage: the round trip through the IdP leaves this page.
 */
const PENDING_KEY = 'tessera.sso_pending';

export const SSO_CALLBACK_PATH = '/sign-in/sso';

function randomUrlSafe(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  return base64Url(buffer);
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function beginSsoSignIn(tenant: string, startUrl: string): Promise<void> {
  const state = randomUrlSafe(24);
  const verifier = randomUrlSafe(48);
  const challenge = base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ tenant, state, verifier }));
  const target = new URL(startUrl, window.location.origin);
  target.searchParams.set('redirect_uri', new URL(SSO_CALLBACK_PATH, window.location.origin).href);
  target.searchParams.set('state', state);
  target.searchParams.set('code_challenge', challenge);
  target.searchParams.set('code_challenge_method', 'S256');
  window.location.assign(target.href);
}

/** The verifier of the pending SSO sign-in when `state` is the one this tab sent; used once. */
export function takeSsoVerifier(state: string | null): string | undefined {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!raw || !state) return undefined;
  const pending = JSON.parse(raw) as { state: string; verifier: string };
  return pending.state === state ? pending.verifier : undefined;
}
