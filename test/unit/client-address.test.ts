/** `clientAddressOf`: which address is the client, with and without proof of CloudFront. */
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, clientAddressOf, rateLimitedAddressOf, viewerAddressOf } from '../../shared/http/client-address';

const SECRET = 'a-secret-only-cloudfront-and-the-functions-know';
const event = (headers: Record<string, string>) => ({ headers, requestContext: { http: { sourceIp: '203.0.113.9' } } }) as unknown as Parameters<typeof clientAddressOf>[0];

describe('client address', () => {
  it('keeps the source address when no secret is configured, whatever the headers say', () => {
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '198.51.100.1:1234', [ORIGIN_VERIFY_HEADER]: SECRET }), undefined)).toBe('203.0.113.9');
  });

  it('keeps the source address for a forged viewer header: no secret, a wrong one, one of another length', () => {
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '198.51.100.1:1234' }), SECRET)).toBe('203.0.113.9');
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '198.51.100.1:1234', [ORIGIN_VERIFY_HEADER]: SECRET.toUpperCase() }), SECRET)).toBe('203.0.113.9');
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '198.51.100.1:1234', [ORIGIN_VERIFY_HEADER]: `${SECRET}x` }), SECRET)).toBe('203.0.113.9');
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '198.51.100.1:1234', [ORIGIN_VERIFY_HEADER]: '' }), SECRET)).toBe('203.0.113.9');
  });

  it('takes the viewer address with the secret, in any header casing', () => {
    expect(clientAddressOf(event({ 'X-Tessera-Viewer-Address': '198.51.100.1', 'X-Tessera-Origin-Verify': SECRET }), SECRET)).toBe('198.51.100.1');
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '2001:db8::1', [ORIGIN_VERIFY_HEADER]: SECRET }), SECRET)).toBe('2001:db8::1');
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '2001:db8:85a3::8a2e:370:7334:46532', [ORIGIN_VERIFY_HEADER]: SECRET }), SECRET)).toBe('2001:db8:85a3::8a2e:370:7334');
  });

  it('keeps the source address when the secret is right but there is no usable viewer address', () => {
    expect(clientAddressOf(event({ [ORIGIN_VERIFY_HEADER]: SECRET }), SECRET)).toBe('203.0.113.9');
    expect(clientAddressOf(event({ [VIEWER_ADDRESS_HEADER]: 'not-an-ip:80', [ORIGIN_VERIFY_HEADER]: SECRET }), SECRET)).toBe('203.0.113.9');
  });

  it('reads a bare address, IPv4, CloudFront\'s unbracketed IPv6 and bracketed IPv6 with a port, and nothing else', () => {
    expect(viewerAddressOf('198.51.100.10')).toBe('198.51.100.10');
    expect(viewerAddressOf('2001:db8::1')).toBe('2001:db8::1');
    expect(viewerAddressOf('198.51.100.10:46532')).toBe('198.51.100.10');
    expect(viewerAddressOf('2001:db8::1:46532')).toBe('2001:db8::1');
    expect(viewerAddressOf('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(viewerAddressOf('198.51.100.10:')).toBeUndefined();
    expect(viewerAddressOf('198.51.100.10:99999')).toBeUndefined();
    expect(viewerAddressOf('999.1.1.1:80')).toBeUndefined();
    expect(viewerAddressOf('[2001:db8::1]')).toBeUndefined();
    expect(viewerAddressOf('')).toBeUndefined();
  });
});

describe('the address a rate limit counts', () => {
  it('counts an IPv4 address as itself', () => {
    expect(rateLimitedAddressOf('198.51.100.7')).toBe('198.51.100.7');
    expect(rateLimitedAddressOf(' 198.51.100.7 ')).toBe('198.51.100.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const block = '2001:db8:85a3:42::/64';
    for (const address of ['2001:db8:85a3:42::1', '2001:0DB8:85A3:0042:ffff:ffff:ffff:ffff', '2001:db8:85a3:42:1:2:3:4', '2001:db8:85a3:42::192.0.2.1', '2001:db8:85a3:42::1%eth0']) {
      expect(rateLimitedAddressOf(address), address).toBe(block);
    }
    expect(rateLimitedAddressOf('2001:db8:85a3:43::1'), 'the next /64').toBe('2001:db8:85a3:43::/64');
    expect(rateLimitedAddressOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitedAddressOf('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitedAddressOf('::')).toBe('0:0:0:0::/64');
    expect(rateLimitedAddressOf('fe80::')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address, in either notation', () => {
    expect(rateLimitedAddressOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(rateLimitedAddressOf('::FFFF:c633:6407')).toBe('198.51.100.7');
    expect(rateLimitedAddressOf('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7');
    // Not mapped: the IPv4-compatible (deprecated) and NAT64 forms are IPv6 addresses of their own.
    expect(rateLimitedAddressOf('::198.51.100.7')).toBe('0:0:0:0::/64');
    expect(rateLimitedAddressOf('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves what is not an address as it is', () => {
    expect(rateLimitedAddressOf('unknown')).toBe('unknown');
    expect(rateLimitedAddressOf('2001:db8::g')).toBe('2001:db8::g');
  });
});
