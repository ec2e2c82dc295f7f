/**
 * A real OpenID Provider for the tests and the demo's single sign-on: panva's `oidc-provider`
 * (v9) on loopback, with an RSA signing key generated per run, the clients and accounts a test
 * file (or the demo) asks for, and a tiny interaction endpoint that tests drive over HTTP
 * (`POST /interaction/:uid` with `login`, `amr`, `acr`, or `cancel`), or in a real browser
 * through the HTML login form it answers to a navigation (`Accept: text/html`). Consent is
 * granted for the requested scopes, as a first-party IdP would.
 *
 * `mutateIdToken` lets a test re-sign the ID token the token endpoint answers (same key, other
 * claims): an ID token for another audience or from another issuer, as an attacker or a
 * misconfigured IdP would produce it.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export interface LocalOidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface LocalOidcProvider {
  issuer: string;
  /** Re-sign the next ID tokens with these claims changed (undefined: leave them alone). */
  mutateIdToken: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
  close(): Promise<void>;
}

export async function startOidcProvider(options: { clients: LocalOidcClient[]; accounts: Record<string, { email: string; email_verified?: boolean | string | null }>; port?: number }): Promise<LocalOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key-1', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' })),
    jwks: { keys: [jwk] },
    features: { devInteractions: { enabled: false } },
    // An ID token that tells how the user authenticated, as enterprise IdPs send it.
    claims: { openid: ['sub', 'auth_time', 'amr', 'acr'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
      const account = options.accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email: account.email, email_verified: account.email_verified === undefined ? true : (account.email_verified ?? undefined) }) };
    },
    // A first-party IdP: the requested scopes are granted without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const oidc = ctx.oidc;
      const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  const control: LocalOidcProvider = {
    issuer,
    mutateIdToken: undefined,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };

  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (ctx.path === '/token' && control.mutateIdToken && body && typeof body.id_token === 'string') {
      body.id_token = await resign(body.id_token, privateKey, control.mutateIdToken);
    }
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (!url.pathname.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    interaction(provider, req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return control;
}

async function resign(idToken: string, key: KeyObject, mutate: (claims: Record<string, unknown>) => Record<string, unknown>): Promise<string> {
  const header = decodeProtectedHeader(idToken);
  const claims = mutate({ ...decodeJwt(idToken) });
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid! }).sign(key);
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * GET: which prompt is pending, as JSON for HTTP-driven tests, or as an HTML login form for a
 * browser's navigation. POST login=…&amr=…&acr=…: finish the login prompt; POST cancel=…: the
 * user gives up, which the IdP answers to the client as `access_denied` (RFC 6749 4.1.2.1).
 */
async function interaction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'GET') {
    if (req.headers.accept?.includes('text/html')) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(loginPage(details.uid));
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ uid: details.uid, prompt: details.prompt.name }));
    return;
  }
  const form = await readForm(req);
  if (form.has('cancel')) {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled the sign-in at the identity provider' }, { mergeWithLastSubmission: false });
    return;
  }
  const amr = form.get('amr')?.split(' ').filter(Boolean);
  const acr = form.get('acr') ?? undefined;
  await provider.interactionFinished(req, res, { login: { accountId: form.get('login') ?? '', ...(amr?.length ? { amr } : {}), ...(acr ? { acr } : {}) } }, { mergeWithLastSubmission: false });
}

/**
 * The IdP's sign-in page: the account, how it authenticated (amr), and a way to cancel. No
 * script; an empty icon, so that Chromium asks for no /favicon.ico (a 404 the console tests would count as an error).
 */
function loginPage(uid: string): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test IdP: sign in</title><link rel="icon" href="data:,"></head>
<body><main>
<h1>Test IdP: sign in</h1>
<form method="post" action="${action}">
<p><label for="login">Username</label> <input id="login" name="login" autocomplete="username" required></p>
<p><label for="amr">Authentication methods (amr)</label> <input id="amr" name="amr" value="pwd"></p>
<p><button type="submit">Sign in</button></p>
</form>
<form method="post" action="${action}"><p><button type="submit" name="cancel" value="1">Cancel</button></p></form>
</main></body></html>`;
}
