/**
 * Refusals of the identity surface that the feature files leave out: MFA enrollment and
 * challenge out of order, workspace lists and owner transfers at their edges, user changes that
 * would lock an admin out or name what does not exist. Each refusal writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let strict: TestTenant; // default policy: REQUIRED, all actions
let open: TestTenant; // MFA OFF
let openAdmin: string;
let n = 0;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  [strict, open] = await Promise.all([createTestTenant(host.deps), createTestTenant(host.deps, { mfaMode: 'OFF' })]);
  openAdmin = (await login(http, clock, open.admin.email)).accessToken;
});
afterAll(() => host?.close());

function expectRefusal(res: HttpResponse, status: number, detail: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect((res.body as { detail: string }).detail).toMatch(detail);
}

async function pendingLogin(email: string): Promise<{ mfa_token: string; enrollment_required: boolean }> {
  const res = await http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { mfa_token: string; enrollment_required: boolean };
}

describe('MFA enrollment and challenge out of order', () => {
  it('no credential at all: 401 saying what to send', async () => {
    expectRefusal(await http.request('POST', '/v1/mfa/enroll/start', { body: {} }), 401, /Send the mfa_token of your login/);
  });

  it('a login that must enroll cannot answer a challenge, nor confirm before starting', async () => {
    const admin = await login(http, clock, strict.admin.email);
    const email = `enrol${++n}@${strict.domain}`;
    await createUser(http, admin.accessToken, { email, role: 'viewer' });
    const pending = await pendingLogin(email);
    expect(pending.enrollment_required).toBe(true);
    expectRefusal(await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: pending.mfa_token, code: '123456' } }), 403, 'Enroll TOTP first');
    expectRefusal(await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: pending.mfa_token, code: '123456' } }), 409, 'Start the enrollment first');
    // The refusals spent nothing: the same transaction still enrolls.
    const start = await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: pending.mfa_token } });
    expect(start.status).toBe(200);
    const secret = (start.body as { secret: string }).secret;
    const confirm = await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: pending.mfa_token, code: await totpCode(secret, clock.epochSeconds()) } });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    clock.advance(30);
    // Enrolled: the same transaction cannot confirm again.
    expectRefusal(await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: pending.mfa_token, code: await totpCode(secret, clock.epochSeconds()) } }), 401, /not valid|log in again/);

    // A later login is a challenge, not an enrollment; a session cannot start a second TOTP.
    const later = await pendingLogin(email);
    expect(later.enrollment_required).toBe(false);
    expectRefusal(await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: later.mfa_token } }), 403, 'Answer the MFA challenge instead');
    const session = (confirm.body as { access_token: string }).access_token;
    expectRefusal(await http.request('POST', '/v1/mfa/enroll/start', { token: session, body: {} }), 409, 'TOTP is already enrolled');
  });
});

describe('workspaces at their edges', () => {
  it("a member pages through exactly the workspaces they hold a role in; another list's cursor is refused", async () => {
    const created: string[] = [];
    for (const name of ['Alpha', 'Beta']) {
      const res = await http.request('POST', '/v1/workspaces', { token: openAdmin, body: { name } });
      expect(res.status).toBe(201);
      created.push((res.body as { id: string }).id);
    }
    const email = `member${++n}@${open.domain}`;
    const id = await createUser(http, openAdmin, { email, role: 'viewer' });
    for (const ws of created) expect((await http.request('PATCH', `/v1/users/${id}`, { token: openAdmin, body: { workspace_id: ws, role: 'viewer' } })).status).toBe(200);
    const member = (await login(http, clock, email)).accessToken;

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await http.request('GET', `/v1/workspaces?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { token: member });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = res.body as { workspaces: { id: string }[]; next_cursor: string | null };
      expect(page.workspaces).toHaveLength(1);
      seen.push(page.workspaces[0]!.id);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.sort()).toEqual([open.workspaceId, ...created].sort());

    const foreign = Buffer.from('ws_notoneofthisusersroles00000').toString('base64url');
    const refused = await http.request('GET', `/v1/workspaces?cursor=${foreign}`, { token: member });
    expect(refused.status).toBe(400);
    expect((refused.body as { errors: unknown[] }).errors).toEqual([{ path: 'cursor', message: expect.stringMatching(/^is not a cursor of this list/) }]);
  });

  it('owner transfer: to the owner is a no-op; to a disabled or unknown user, or of an unknown workspace, is refused', async () => {
    const ws = (await http.request('POST', '/v1/workspaces', { token: openAdmin, body: { name: 'Transfers' } })).body as { id: string; owner_id: string };
    const transfer = (workspaceId: string, newOwnerId: string) => http.request('POST', `/v1/workspaces/${workspaceId}/owner-transfer`, { token: openAdmin, body: { new_owner_id: newOwnerId } });
    const same = await transfer(ws.id, ws.owner_id);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body).toMatchObject({ id: ws.id, owner_id: ws.owner_id });

    const gone = await createUser(http, openAdmin, { email: `gone${++n}@${open.domain}`, role: 'viewer' });
    expect((await http.request('POST', `/v1/users/${gone}/disable`, { token: openAdmin })).status).toBe(200);
    const toDisabled = await transfer(ws.id, gone);
    expect(toDisabled.status).toBe(400);
    expect((toDisabled.body as { errors: unknown[] }).errors).toEqual([{ path: 'new_owner_id', message: 'must be an active user of the tenant' }]);
    expect((await transfer(ws.id, 'usr_0000000000000000000000000')).status).toBe(400);
    expect((await transfer('ws_0000000000000000000000000', ws.owner_id)).status).toBe(404);
    const after = (await http.request('GET', '/v1/workspaces?limit=100', { token: openAdmin })).body as { workspaces: { id: string; owner_id: string }[] };
    expect(after.workspaces.find((w) => w.id === ws.id)?.owner_id).toBe(ws.owner_id);
  });
});

describe('user changes at their edges', () => {
  it('an admin cannot drop their own tenant administration; unknown workspaces and users are 404; a taken email 409', async () => {
    const me = (await http.request('GET', '/v1/me', { token: openAdmin })).body as { id: string };
    expectRefusal(await http.request('PATCH', `/v1/users/${me.id}`, { token: openAdmin, body: { tenant_admin: false } }), 403, 'You cannot remove your own tenant administration');
    expect((await http.request('GET', '/v1/me', { token: openAdmin })).body).toMatchObject({ tenant_admin: true });

    expect((await http.request('POST', '/v1/users', { token: openAdmin, body: { email: `nows${++n}@${open.domain}`, role: 'viewer', workspace_id: 'ws_0000000000000000000000000' } })).status).toBe(404);
    expect((await http.request('PATCH', '/v1/users/usr_0000000000000000000000000', { token: openAdmin, body: { role: 'viewer' } })).status).toBe(404);
    expect((await http.request('POST', '/v1/users/usr_0000000000000000000000000/disable', { token: openAdmin })).status).toBe(404);
    expect((await http.request('POST', '/v1/users/usr_0000000000000000000000000/enable', { token: openAdmin })).status).toBe(404);

    const a = await createUser(http, openAdmin, { email: `a${++n}@${open.domain}`, role: 'viewer' });
    const taken = `b${++n}@${open.domain}`;
    await createUser(http, openAdmin, { email: taken, role: 'viewer' });
    expect((await http.request('PATCH', `/v1/users/${a}`, { token: openAdmin, body: { email: taken } })).status).toBe(409);
    expect((await http.request('GET', `/v1/users/${a}`, { token: openAdmin })).body).toMatchObject({ email: `a${n - 1}@${open.domain}` });
  });
});
