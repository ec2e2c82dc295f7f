/**
 * A process keeps the access tokens it has verified, so a client's next request with the same
 * token costs no signature check. What the signature check decided may be kept; what time
 * decides may not: a kept token is refused once it expires, word for word as one never seen.
 * (The key set is kept here for an hour, longer than a token lives, so nothing is read again
 * in between; signing-key-rotation.test.ts covers a kept token whose key retires.)
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSigningKey } from '../../shared/identity/issuer-signing-key';
import { ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS } from '../../shared/identity/access-tokens';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;

const me = (token: string) => http.request('GET', '/v1/me', { token });
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_KEY_CACHE_SECONDS: '3600' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
});
afterAll(() => host?.close());

describe('verified access tokens kept by a warm process', () => {
  it('a token used before is refused once it expires, like one never seen', async () => {
    // Both tokens must carry the same exp: on a loaded machine two logins may straddle a second.
    clock.hold();
    const used = (await login(http, clock, tenant.admin.email)).accessToken;
    const unseen = (await login(http, clock, tenant.admin.email)).accessToken;
    const exp = Number(claimsOf(used).exp);
    expect(Number(claimsOf(unseen).exp)).toBe(exp);
    expect((await me(used)).status).toBe(200);
    // The last second it is accepted (exp is exclusive, with the leeway), then refused.
    clock.advance(exp + ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS - 1 - clock.epochSeconds());
    expect((await me(used)).status).toBe(200);
    clock.advance(1);
    for (const token of [used, unseen]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated', detail: 'The access token has expired' });
    }
  });

  it('a token not yet valid (nbf) is refused, and accepted once its time has come', async () => {
    const session = await login(http, clock, tenant.admin.email);
    const claims = claimsOf(session.accessToken);
    const key = await currentSigningKey(host.deps);
    const nbf = clock.epochSeconds() + 60;
    const early = await new SignJWT({ ...claims, nbf }).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'at+jwt' }).sign(key.privateKey);
    expect((await me(early)).status).toBe(401);
    clock.advance(60 - ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS);
    expect((await me(early)).status).toBe(200);
  });

  it('the same user, workspace and permissions whether the token was verified now or before', async () => {
    const token = (await login(http, clock, tenant.admin.email)).accessToken;
    const first = await me(token);
    const second = await me(token);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });
});
