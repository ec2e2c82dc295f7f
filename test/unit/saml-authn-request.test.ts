/**
 * The AuthnRequest Tessera writes itself (shared/identity/sso/saml-login.ts), read back the way
 * an IdP reads the HTTP-Redirect binding: the query parsed, SAMLRequest inflated and parsed as
 * XML, the signature checked over the octets saml-bindings §3.4.4.1 names. The peer tests
 * (samlify's IdP role, SimpleSAMLphp) check the same against real IdPs.
 */
import { createPublicKey, verify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../shared/crypto/self-signed-certificate';
import { authnRequestRedirect, RSA_SHA256 } from '../../shared/identity/sso/saml-login';

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const input = {
  entityId: 'https://tessera.test/v1/auth/sso/acme/metadata',
  acsUrl: 'https://tessera.test/v1/auth/sso/acme/callback',
  ssoUrl: 'https://idp.test/sso',
  relayState: 'state with spaces & symbols/+=',
  issueInstant: new Date('2026-05-06T07:08:09.010Z'),
};

function requestOf(url: string): Element {
  const xml = inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  let broken = false;
  const doc = new DOMParser({ errorHandler: () => { broken = true; } }).parseFromString(xml, 'text/xml');
  expect(broken).toBe(false);
  return doc.documentElement;
}

describe('AuthnRequest (HTTP-Redirect)', () => {
  it('asks the IdP for a login answered at our ACS by POST, its ID the one returned, the RelayState as given', () => {
    const request = authnRequestRedirect(input);
    const url = new URL(request.url);
    expect(`${url.origin}${url.pathname}`).toBe(input.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe(input.relayState);
    expect(url.searchParams.has('SigAlg')).toBe(false);
    expect(url.searchParams.has('Signature')).toBe(false);
    const root = requestOf(request.url);
    expect([root.namespaceURI, root.localName]).toEqual([PROTOCOL_NS, 'AuthnRequest']);
    expect(request.id).toMatch(/^_[0-9a-f-]{36}$/);
    expect(root.getAttribute('ID')).toBe(request.id);
    expect(root.getAttribute('Version')).toBe('2.0');
    expect(root.getAttribute('IssueInstant')).toBe('2026-05-06T07:08:09.010Z');
    expect(root.getAttribute('Destination')).toBe(input.ssoUrl);
    expect(root.getAttribute('ProtocolBinding')).toBe('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(root.getAttribute('AssertionConsumerServiceURL')).toBe(input.acsUrl);
    expect(root.getElementsByTagNameNS(ASSERTION_NS, 'Issuer')[0]?.textContent).toBe(input.entityId);
    const policy = root.getElementsByTagNameNS(PROTOCOL_NS, 'NameIDPolicy')[0];
    expect(policy?.getAttribute('Format')).toBe('urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified');
    expect(authnRequestRedirect(input).id).not.toBe(request.id);
  });

  it('keeps a query the SSO URL already has, and escapes it in the XML', () => {
    // `&amp;` read unescaped from the XML would come back as `&`.
    const ssoUrl = 'https://idp.test/sso?realm=a&b=c&amp;d';
    const request = authnRequestRedirect({ ...input, ssoUrl });
    const url = new URL(request.url);
    expect(url.searchParams.get('realm')).toBe('a');
    expect(url.searchParams.get('b')).toBe('c');
    expect(url.searchParams.get('RelayState')).toBe(input.relayState);
    expect(requestOf(request.url).getAttribute('Destination')).toBe(ssoUrl);
  });

  it('when given a key, signs SAMLRequest, RelayState and SigAlg as sent, with RSA-SHA256', () => {
    const credential = selfSignedCertificate({ commonName: 'sp', notBefore: new Date('2026-01-01Z'), notAfter: new Date('2027-01-01Z') });
    const request = authnRequestRedirect({ ...input, signingKey: credential.privateKeyPem });
    const query = request.url.split('?')[1]!;
    const [signed, signature] = query.split('&Signature=') as [string, string];
    expect(signed).toMatch(/^SAMLRequest=[^&]+&RelayState=[^&]+&SigAlg=[^&]+$/);
    expect(new URL(request.url).searchParams.get('SigAlg')).toBe(RSA_SHA256);
    const key = createPublicKey(credential.privateKeyPem);
    expect(verify('sha256', Buffer.from(signed), key, Buffer.from(decodeURIComponent(signature), 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.from(signed.replace(/RelayState=[^&]+/, 'RelayState=other')), key, Buffer.from(decodeURIComponent(signature), 'base64'))).toBe(false);
  });
});
