/**
 * Rotating the JWT signing key under load, through the HTTP surface of the local host: the host
 * stands for warm functions (its issuer holds the old key, its verifiers hold the key set read
 * before the rotation), a second deps for a cold issuer that starts signing with the new key
 * at once. Several clients keep calling `/v1/me` and refreshing their sessions before, during
 * and after `rotateSigningKey` (what `npm run tessera -- rotate-signing-key` runs, here with a
 * table slowed down so that requests fall between its steps): every answer is 200. Time moves
 * only on the injected clock.
 */
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JWT_CLOCK_TOLERANCE_SECONDS, type SigningKey } from '../../shared/crypto/signing-keys';
import type { Deps } from '../../shared/deps';
import { createDeps } from '../../functions/start/deps-assembly';
import { issueAccessToken } from '../../shared/identity/access-tokens';
import { currentSigningKey } from '../../shared/identity/issuer-signing-key';
import { rotateSigningKey, type SigningKeyRotation } from '../../shared/identity/signing-key-rotation';
import { keys } from '../../shared/store/keys';
import type { PublishedSigningKeyRecord } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
const CLIENTS = 4;

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_RATE_AUTH_IP_REQUESTS: '1000000' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
});
afterAll(() => host?.close());

const kidOf = (token: string) => decodeProtectedHeader(token).kid!;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A token signed by `key` with the claims of `like`, valid for a full lifetime from now. */
function signedWith(key: Pick<SigningKey, 'kid' | 'privateKey'>, like: string) {
  const claims = decodeJwt(like);
  delete claims.iat;
  delete claims.exp;
  const now = clock.epochSeconds();
  return new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'at+jwt' }).setIssuedAt(now).setExpirationTime(now + 900).sign(key.privateKey);
}

/** The rotation as another process runs it: its own deps, each table write a little late. */
async function slowOperatorDeps(): Promise<Deps> {
  const deps = await createDeps(host.config, { clock });
  const table = deps.table;
  for (const method of ['put', 'update'] as const) {
    const original = table[method].bind(table) as (input: never) => Promise<unknown>;
    vi.spyOn(table, method).mockImplementation((async (input: never) => {
      await pause(60);
      return original(input);
    }) as never);
  }
  return deps;
}

interface Answer {
  phase: 'before' | 'during' | 'after';
  kind: 'me' | 'refresh';
  kid: string;
  status: number;
}

describe('signing key rotation', () => {
  it('rotates under load with no 401; the new key verifies on warm functions, the retired one stops', async () => {
    const oldKey = await currentSigningKey(host.deps);
    const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => login(http, clock, tenant.admin.email)));
    for (const s of sessions) expect(kidOf(s.accessToken)).toBe(oldKey.kid);
    const pool: string[] = sessions.map((s) => s.accessToken);
    // Tokens signed with the new key by a cold issuer. Every other call uses one, so how soon
    // the new key is exercised does not depend on how large the pool has grown by then.
    const newKeyTokens: string[] = [];

    let phase: Answer['phase'] = 'before';
    let stop = false;
    const answers: Answer[] = [];
    const client = async (index: number) => {
      let refreshToken = sessions[index]!.refreshToken;
      for (let i = 0; !stop; i++) {
        if (i % 4 === 3) {
          const res = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
          const body = res.body as { access_token: string; refresh_token: string };
          answers.push({ phase, kind: 'refresh', kid: res.status === 200 ? kidOf(body.access_token) : '?', status: res.status });
          if (res.status === 200) {
            refreshToken = body.refresh_token;
            pool.push(body.access_token);
          }
        }
        const token = newKeyTokens.length > 0 && i % 2 === 0 ? newKeyTokens[i % newKeyTokens.length]! : pool[(index + i * 7) % pool.length]!;
        const res = await http.request('GET', '/v1/me', { token });
        answers.push({ phase, kind: 'me', kid: kidOf(token), status: res.status });
      }
    };
    const answered = async (predicate: (a: Answer) => boolean, count: number) => {
      while (answers.filter(predicate).length < count) await pause(5);
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    let rotatedAt: Date;
    let rotation: SigningKeyRotation;
    try {
      await answered((a) => a.phase === 'before', 20);
      phase = 'during';
      const operator = await slowOperatorDeps();
      rotatedAt = clock.now();
      try {
        rotation = await rotateSigningKey(operator);
      } finally {
        operator.db.destroy();
      }
      phase = 'after';
      expect(rotation.previousKid).toBe(oldKey.kid);
      expect(rotation.retired).toEqual([oldKey.kid]);
      expect(rotation.newKid).not.toBe(oldKey.kid);

      // The warm issuer still signs with the old key (retiring, still published) ...
      await answered((a) => a.phase === 'after' && a.kind === 'refresh', CLIENTS);
      // ... while a cold issuer already signs with the new one, which the host's verifiers
      // have not seen: their first token with it makes them read the published set again.
      const cold = await createDeps(host.config, { clock });
      try {
        const claims = decodeJwt(sessions[0]!.accessToken);
        const fresh = await issueAccessToken(cold, {
          userId: claims.sub!, tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, scopes: String(claims.scope).split(' '),
          amr: ['pwd'], authTime: Number(claims.auth_time), mfaAt: undefined, sessionId: String(claims.sid),
        });
        expect(kidOf(fresh.token)).toBe(rotation.newKid);
        newKeyTokens.push(fresh.token);
      } finally {
        cold.db.destroy();
      }
      await answered((a) => a.phase === 'after' && a.kid === rotation.newKid, 10);

      // After one key cache period the warm issuer signs with the new key too.
      clock.advance(host.config.keyCacheSeconds + 1);
      const refreshedAfter = answers.length;
      await answered((a) => a.kind === 'refresh' && a.kid === rotation.newKid, CLIENTS);
      await answered(() => true, refreshedAfter + 20);
    } finally {
      // Also when an expectation above fails: no client may outlive this test and call the
      // host while the next one runs.
      stop = true;
      await load;
    }

    const count = (predicate: (a: Answer) => boolean) => answers.filter(predicate).length;
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused, JSON.stringify(refused.slice(0, 5))).toEqual([]);
    expect(count((a) => a.phase === 'before')).toBeGreaterThanOrEqual(20);
    expect(count((a) => a.phase === 'during')).toBeGreaterThan(0);
    expect(count((a) => a.phase === 'after')).toBeGreaterThan(20);
    expect(count((a) => a.phase === 'after' && a.kind === 'me' && a.kid === oldKey.kid)).toBeGreaterThan(0);
    expect(count((a) => a.kind === 'me' && a.kid === rotation.newKid)).toBeGreaterThanOrEqual(10);

    // The JWKS serves both keys while the old one retires.
    const jwks = await http.request('GET', '/v1/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect((jwks.body as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort()).toEqual([oldKey.kid, rotation.newKid].sort());
    const retiring = await host.deps.table.get<PublishedSigningKeyRecord>(keys.signingKey(oldKey.kid));
    expect(retiring).toMatchObject({ status: 'retiring', expires_at: rotation.retiringUntil.toISOString() });
    // Long enough for a warm issuer's last token with it: key cache period + token lifetime + leeway.
    const coverSeconds = host.config.keyCacheSeconds + host.config.jwt.accessTokenTtlSeconds + JWT_CLOCK_TOLERANCE_SECONDS;
    expect(rotation.retiringUntil.getTime() - rotatedAt.getTime()).toBeGreaterThanOrEqual(coverSeconds * 1000);

    // Once it has expired, a token it signed is refused even when its own exp is still ahead,
    // both one the host verified (and holds as verified) while the key still verified, and one it
    // never saw; and the JWKS no longer lists it.
    clock.advance(Math.ceil((Date.parse(retiring!.expires_at!) - clock.now().getTime()) / 1000) - 60);
    const seenOld = await signedWith(oldKey, sessions[0]!.accessToken);
    expect((await http.request('GET', '/v1/me', { token: seenOld })).status).toBe(200);
    clock.advance(61);
    const lateOld = await signedWith(oldKey, sessions[0]!.accessToken);
    for (const token of [seenOld, lateOld]) {
      const res = await http.request('GET', '/v1/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated', detail: 'The access token was signed by an unknown key' });
    }
    const after = await http.request('GET', '/v1/.well-known/jwks.json');
    expect((after.body as { keys: { kid: string }[] }).keys.map((k) => k.kid)).toEqual([rotation.newKid]);
    const newToken = (await login(http, clock, tenant.admin.email)).accessToken;
    expect(kidOf(newToken)).toBe(rotation.newKid);
    expect((await http.request('GET', '/v1/me', { token: newToken })).status).toBe(200);
  });

  it('refuses a kid that is not published, and a flood of them reads the key set once, not per request', async () => {
    // Past the refetch interval of anything before.
    clock.advance(60);
    const valid = (await login(http, clock, tenant.admin.email)).accessToken;
    const reads = vi.spyOn(host.deps.table, 'queryPrefix');
    const keySetReads = () => reads.mock.calls.filter(([prefix]) => prefix.PK === keys.signingKeys().PK).length;
    try {
      for (let i = 0; i < 20; i++) {
        const { privateKey } = generateKeyPairSync('ed25519');
        const forged = await signedWith({ kid: randomBytes(12).toString('base64url'), privateKey }, valid);
        const res = await http.request('GET', '/v1/me', { token: forged });
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ detail: 'The access token was signed by an unknown key' });
      }
      expect(keySetReads()).toBe(1);
      // A real token keeps working meanwhile, from what is held.
      expect((await http.request('GET', '/v1/me', { token: valid })).status).toBe(200);
      expect(keySetReads()).toBe(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('a key set the table cannot give is an outage (5xx problem+json, nothing of the error shown), not a refused token', async () => {
    const valid = (await login(http, clock, tenant.admin.email)).accessToken;
    clock.advance(host.config.keyCacheSeconds + 1);
    const failing = vi.spyOn(host.deps.table, 'queryPrefix').mockRejectedValueOnce(Object.assign(new Error('table unreachable: secret detail'), { name: 'InternalServerError' }));
    try {
      const res = await http.request('GET', '/v1/me', { token: valid });
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.text).not.toContain('secret detail');
    } finally {
      failing.mockRestore();
    }
    expect((await http.request('GET', '/v1/me', { token: valid })).status).toBe(200);
  });

  it('serves the JWKS from the published set without a secret: public members only, cacheable for the key cache period', async () => {
    const res = await http.request('GET', '/v1/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(`public, max-age=${host.config.keyCacheSeconds}`);
    const { keys: jwks } = res.body as { keys: Record<string, unknown>[] };
    expect(jwks.length).toBeGreaterThan(0);
    for (const jwk of jwks) {
      expect(Object.keys(jwk).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      expect(jwk).not.toHaveProperty('d');
    }
    expect(jwks.map((k) => k.kid)).toContain((await currentSigningKey(host.deps)).kid);
  });
});
