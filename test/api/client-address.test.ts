/**
 * The client address behind CloudFront, over HTTP on the local host: a failed login's audit
 * event records the viewer address CloudFront sends only when the request carries the origin-verify
 * secret; a direct request with a forged viewer header (no secret, or a wrong one) keeps its
 * own source address. The host's X-Forwarded-For trust is off, so the source is the peer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/http/client-address';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const ORIGIN_SECRET = 'origin-verify-secret-of-this-test-0123456789';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_TRUST_FORWARDED_FOR: '0', TESSERA_ORIGIN_VERIFY_SECRET: ORIGIN_SECRET } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(() => host?.close());

/** The source address of the `login_failed` event a failed sign-in with these headers leaves. */
async function recordedAddress(headers: Record<string, string>): Promise<string | null> {
  const res = await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: 'not the password at all' }, headers });
  expect(res.status).toBe(401);
  const events = (await http.request('GET', `/v1/tenants/${tenant.tenantId}/audit-events?action=login_failed&limit=1`, { token: adminToken })).body as { audit_events: { source_ip: string | null }[] };
  return events.audit_events[0]!.source_ip;
}

describe('client address behind CloudFront', () => {
  it('records the connection\'s own address when the viewer header comes without the origin secret', async () => {
    const own = await recordedAddress({});
    expect(own).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7:443' })).toBe(own);
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7:443', [ORIGIN_VERIFY_HEADER]: `${ORIGIN_SECRET.slice(0, -1)}x` })).toBe(own);
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7:443', [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET.slice(0, -1) })).toBe(own);
  });

  it('records the viewer address, IPv4 or IPv6, when the request carries the origin secret', async () => {
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7', [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET })).toBe('198.51.100.7');
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '2001:db8::9', [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET })).toBe('2001:db8::9');
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '198.51.100.6:46532', [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET })).toBe('198.51.100.6');
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '2001:db8::7:46532', [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET })).toBe('2001:db8::7');
    expect(await recordedAddress({ [VIEWER_ADDRESS_HEADER]: '[2001:db8::8]:443', [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET })).toBe('2001:db8::8');
  });
});
