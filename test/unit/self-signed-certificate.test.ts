/**
 * The SP's self-signed certificate (shared/crypto/self-signed-certificate.ts), read back by
 * Node's X.509 parser and, where the machine has it, by `openssl x509`: the DER is written by
 * hand, so each field is checked as another implementation reads it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { X509Certificate, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../shared/crypto/self-signed-certificate';

const NOT_BEFORE = new Date('2026-03-04T05:06:07.890Z');
const NOT_AFTER = new Date('2036-03-04T05:06:07.890Z');

function openssl(args: string[], input: Buffer): Buffer | undefined {
  try {
    return execFileSync('openssl', args, { input, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

describe('self-signed certificate', () => {
  const made = selfSignedCertificate({ commonName: 'Tessera SAML SP acme-é', notBefore: NOT_BEFORE, notAfter: NOT_AFTER });
  const cert = new X509Certificate(made.der);

  it('parses as X.509, signed by its own key with SHA-256, issuer and subject the common name', () => {
    expect(cert.subject).toBe('CN=Tessera SAML SP acme-é');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.publicKey.asymmetricKeyType).toBe('rsa');
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(cert.ca).toBe(false);
    // The signature covers the certificate: one changed byte of the subject breaks it.
    const tampered = Buffer.from(made.der);
    const at = tampered.indexOf(Buffer.from('acme'));
    tampered[at] = 'b'.charCodeAt(0);
    expect(new X509Certificate(tampered).verify(cert.publicKey)).toBe(false);
  });

  it('holds the validity window to the second, and a positive random serial', () => {
    expect(new Date(cert.validFrom).toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(new Date(cert.validTo).toISOString()).toBe('2036-03-04T05:06:07.000Z');
    expect(cert.serialNumber).toMatch(/^[0-7][0-9A-F]{31}$/);
    expect(selfSignedCertificate({ commonName: 'x', notBefore: NOT_BEFORE, notAfter: NOT_AFTER }).der.equals(made.der)).toBe(false);
  });

  it('writes dates from 2050 on as GeneralizedTime', () => {
    const late = new X509Certificate(selfSignedCertificate({ commonName: 'x', notBefore: new Date('2049-12-31T23:59:59Z'), notAfter: new Date('2051-01-02T03:04:05Z') }).der);
    expect(new Date(late.validFrom).toISOString()).toBe('2049-12-31T23:59:59.000Z');
    expect(new Date(late.validTo).toISOString()).toBe('2051-01-02T03:04:05.000Z');
  });

  it('refuses a window that ends before it starts', () => {
    expect(() => selfSignedCertificate({ commonName: 'x', notBefore: NOT_AFTER, notAfter: NOT_BEFORE })).toThrow(RangeError);
  });

  it('gives the private key of the certificate, as PKCS #8 PEM', () => {
    expect(made.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const signature = sign('sha256', Buffer.from('AuthnRequest'), createPrivateKey(made.privateKeyPem));
    expect(verify('sha256', Buffer.from('AuthnRequest'), cert.publicKey, signature)).toBe(true);
    expect(createPublicKey(made.privateKeyPem).export({ type: 'spki', format: 'der' }).equals(cert.publicKey.export({ type: 'spki', format: 'der' }))).toBe(true);
  });

  it('reads the same in openssl: v3, sha256WithRSAEncryption, an end-entity key that signs, a valid self-signature', (context) => {
    const text = openssl(['x509', '-inform', 'DER', '-noout', '-text', '-nameopt', 'utf8'], made.der)?.toString();
    if (text === undefined) return context.skip('openssl is not on this machine');
    expect(text).toContain('Version: 3 (0x2)');
    expect(text).toMatch(/Signature Algorithm: sha256WithRSAEncryption/);
    expect(text).toContain('Issuer: CN=Tessera SAML SP acme-é');
    expect(text).toContain('Subject: CN=Tessera SAML SP acme-é');
    expect(text).toContain('Not Before: Mar  4 05:06:07 2026 GMT');
    expect(text).toContain('Not After : Mar  4 05:06:07 2036 GMT');
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature\n/);
    // openssl re-encodes what it parsed: the same bytes, so the encoding is DER (no BER-only form).
    expect(openssl(['x509', '-inform', 'DER', '-outform', 'DER'], made.der)!.equals(made.der)).toBe(true);
    // And it checks the self-signature on its own (exit status 0, else execFileSync throws).
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tessera-cert-')), 'sp.pem');
    writeFileSync(file, `-----BEGIN CERTIFICATE-----\n${made.der.toString('base64')}\n-----END CERTIFICATE-----\n`);
    expect(openssl(['verify', '-no-CAfile', '-no-CApath', '-partial_chain', '-check_ss_sig', '-trusted', file, file], Buffer.alloc(0))?.toString()).toBe(`${file}: OK\n`);
    rmSync(path.dirname(file), { recursive: true });
  });
});
