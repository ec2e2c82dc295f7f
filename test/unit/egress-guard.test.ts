import { describe, expect, it } from 'vitest';
import type { Deps } from '../../shared/deps';
import { ServiceUnavailableError } from '../../shared/errors';
import { oidcConfiguration } from '../../shared/identity/sso/oidc-client';
import { assertPublicDestination, EgressRefusedError, guardedFetch, isPublicAddress } from '../../shared/identity/sso/egress-guard';

describe('egress guard for admin-chosen IdP URLs (aws stage)', () => {
  it('tells public addresses from the function\'s own networks', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', 'not-an-ip',
    ]) expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses a host when any address it resolves to is not public', async () => {
    const resolver = (answers: Record<string, string[]>) => (host: string) => Promise.resolve((answers[host] ?? []).map((address) => ({ address })));
    const resolve = resolver({ 'idp.example.com': ['93.184.216.34'], 'sneaky.example.com': ['93.184.216.34', '10.0.0.5'], 'empty.example.com': [] });
    await expect(assertPublicDestination(new URL('https://idp.example.com/.well-known/openid-configuration'), resolve)).resolves.toBeUndefined();
    await expect(assertPublicDestination(new URL('https://sneaky.example.com/'), resolve)).rejects.toThrow(EgressRefusedError);
    await expect(assertPublicDestination(new URL('https://empty.example.com/'), resolve)).rejects.toThrow(EgressRefusedError);
    await expect(assertPublicDestination(new URL('http://169.254.169.254/latest/meta-data/'), resolve)).rejects.toThrow(EgressRefusedError);
    await expect(assertPublicDestination(new URL('http://[::1]:9001/'), resolve)).rejects.toThrow(EgressRefusedError);
  });

  it('the fetch it gives openid-client never connects to a refused destination', async () => {
    const fetchGuarded = guardedFetch(() => Promise.resolve([{ address: '127.0.0.1' }]));
    await expect(fetchGuarded('https://localhost.example.com/token', { method: 'POST', headers: {}, body: undefined, redirect: 'manual', signal: undefined })).rejects.toThrow(EgressRefusedError);
  });

  it('guards OIDC discovery in the aws stage: a loopback issuer is refused before any connection', async () => {
    // Only what oidcConfiguration reads of Deps; the guard is what is under test.
    const envelope = { decrypt: () => Promise.resolve('secret') };
    const deps = { config: { stage: 'aws' }, part: () => ({ get: () => Promise.resolve(envelope) }), oidcConfigurations: new Map() } as unknown as Deps;
    const settings = { issuer: 'https://127.0.0.1:1/', client_id: 'c', client_secret_encrypted: 'x', client_secret_kms_key_id: 'k' };
    const refused = await oidcConfiguration(deps, 'ten_x', settings).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    // openid-client wraps what its fetch threw; somewhere down the cause chain is the refusal.
    const causes: unknown[] = [];
    for (let e: unknown = refused; e instanceof Error; e = e.cause) causes.push(e);
    expect(causes.some((e) => e instanceof EgressRefusedError)).toBe(true);
  });
});
