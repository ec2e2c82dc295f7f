/**
 * The signed-in session. The access token (15 minutes) lives in memory only. The refresh token
 * is kept in sessionStorage so that a reload of this tab stays signed in: it is single-use (a
 * reuse revokes its family), dies with the tab, is never sent by the browser on its own (no
 * cookie, so no CSRF), and the strict CSP (scripts from this origin only, no inline script) is
 * what keeps other code from reading it. See console/README.md.
 */
const REFRESH_KEY = 'tessera.refresh_token';
const METHOD_KEY = 'tessera.sign_in_method';

/**
 * How this session began. Neither `/v1/me` nor the token says it for sure (an IdP may assert
 * `pwd` as a local password login does), and the step-up prompt needs it: a user who came
 * through the IdP can get a fresh MFA by signing in there again.
 */
export type SignInMethod = 'password' | 'sso';

export interface TokenPair {
  access_token: string;
  refresh_token?: string | undefined;
  workspace_id: string;
  tenant_id: string;
}

type Listener = () => void;

class Session {
  private access: string | undefined;
  private workspace: string | undefined;
  private tenant: string | undefined;
  private readonly listeners = new Set<Listener>();

  accessToken(): string | undefined {
    return this.access;
  }

  workspaceId(): string | undefined {
    return this.workspace;
  }

  tenantId(): string | undefined {
    return this.tenant;
  }

  refreshToken(): string | undefined {
    return sessionStorage.getItem(REFRESH_KEY) ?? undefined;
  }

  signInMethod(): SignInMethod | undefined {
    const method = sessionStorage.getItem(METHOD_KEY);
    return method === 'password' || method === 'sso' ? method : undefined;
  }

  /** A new token pair: `method` when a sign-in made it; a refresh or workspace switch keeps the session's. */
  signIn(tokens: TokenPair, method?: SignInMethod): void {
    this.access = tokens.access_token;
    if (method) sessionStorage.setItem(METHOD_KEY, method);
    this.workspace = tokens.workspace_id;
    this.tenant = tokens.tenant_id;
    if (tokens.refresh_token) sessionStorage.setItem(REFRESH_KEY, tokens.refresh_token);
    this.changed();
  }

  /** A fresher access token for the same session (step-up answers one without a refresh token). */
  replaceAccessToken(accessToken: string): void {
    this.access = accessToken;
  }

  signOut(): void {
    this.access = undefined;
    this.workspace = undefined;
    this.tenant = undefined;
    sessionStorage.removeItem(REFRESH_KEY);
    sessionStorage.removeItem(METHOD_KEY);
    this.changed();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

export const session = new Session();
