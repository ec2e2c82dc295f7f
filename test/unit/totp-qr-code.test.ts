/**
 * The enrollment's QR code, drawn from qrcode's core and SVG renderer imported by path, is the
 * very SVG that the package's own `toString(uri, { type: 'svg' })` draws.
 */
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { totpQrCode } from '../../shared/identity/totp-enrollment-start';

const svgOf = (dataUrl: string) => Buffer.from(dataUrl.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');

describe('the TOTP QR code', () => {
  it.each([
    'otpauth://totp/Tessera:ana%40acme.test?secret=JBSWY3DPEHPK3PXP&issuer=Tessera&algorithm=SHA1&digits=6&period=30',
    `otpauth://totp/Tessera:${'long.name'.repeat(12)}%40example.test?secret=${'A'.repeat(52)}&issuer=Tessera`,
  ])('draws what qrcode.toString draws, as an SVG data URL (%#)', async (uri) => {
    const dataUrl = totpQrCode(uri);
    expect(dataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(svgOf(dataUrl)).toBe(await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
    expect(svgOf(dataUrl)).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
  });
});
