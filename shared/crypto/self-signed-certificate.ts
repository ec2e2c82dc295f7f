/**
 * A self-signed X.509 certificate around a new RSA key, made with node:crypto alone: the key pair
 * and the signature come from Node, and this module writes the DER of the certificate around
 * them (RFC 5280, §4.1). It is what SAML metadata expects of a signing key, a key in a
 * certificate; nothing validates a chain up to it. A certificate library would bring its own ASN.1
 * stack and dependency injection (~200 KiB) into every function that configures SAML, for the
 * handful of fields below.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface SelfSignedCertificateRequest {
  commonName: string;
  notBefore: Date;
  notAfter: Date;
}

export interface SelfSignedCertificate {
  /** The certificate, DER. */
  der: Buffer;
  /** The private key, PKCS #8 PEM. */
  privateKeyPem: string;
}

const RSA_MODULUS_BITS = 2048;
/** Random serial bytes: RFC 5280 allows up to 20 octets; 16 random ones make a collision moot. */
const SERIAL_BYTES = 16;

// DER: a tag, the length (short form below 128, else long form), the content.
function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const lengthBytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) lengthBytes.unshift(rest % 256);
  return Buffer.concat([Buffer.from([tag, 0x80 | lengthBytes.length, ...lengthBytes]), content]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const explicit = (tagNumber: number, item: Buffer) => der(0xa0 + tagNumber, item);
const nullValue = () => der(0x05, Buffer.alloc(0));
const booleanValue = (value: boolean) => der(0x01, Buffer.from([value ? 0xff : 0x00]));
const octetString = (content: Buffer) => der(0x04, content);
const utf8String = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));
/** A BIT STRING of whole bytes (no unused bits). */
const bitString = (content: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), content]));

/** A non-negative INTEGER from its big-endian bytes: minimal, with a 0 byte before a set high bit. */
function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const minimal = bytes.subarray(start);
  return der(0x02, minimal[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function objectIdentifier(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first! + second!];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) base128.unshift(0x80 | (value & 0x7f));
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050 on; seconds, in UTC. */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? der(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii')) : der(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}

const SHA256_WITH_RSA = sequence(objectIdentifier('1.2.840.113549.1.1.11'), nullValue());
const COMMON_NAME = '2.5.4.3';
const BASIC_CONSTRAINTS = '2.5.29.19';
const KEY_USAGE = '2.5.29.15';

const extension = (oid: string, critical: boolean, value: Buffer) => sequence(objectIdentifier(oid), ...(critical ? [booleanValue(true)] : []), octetString(value));

/**
 * Not a CA (an empty BasicConstraints), and the key signs (KeyUsage digitalSignature, bit 0:
 * the high bit of the one byte, the 7 unused bits after it counted in the BIT STRING's first byte).
 */
const END_ENTITY_SIGNING_EXTENSIONS = explicit(3, sequence(extension(BASIC_CONSTRAINTS, true, sequence()), extension(KEY_USAGE, true, der(0x03, Buffer.from([0x07, 0x80])))));

export function selfSignedCertificate(request: SelfSignedCertificateRequest): SelfSignedCertificate {
  if (!(request.notBefore < request.notAfter)) throw new RangeError('notBefore must come before notAfter');
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: RSA_MODULUS_BITS });
  const name = sequence(set(sequence(objectIdentifier(COMMON_NAME), utf8String(request.commonName))));
  const serial = randomBytes(SERIAL_BYTES);
  serial[0] = (serial[0]! & 0x7f) | 0x01; // positive and never shortened: the high bit clear, the first byte not 0
  const tbsCertificate = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))), // v3, which extensions require
    unsignedInteger(serial),
    SHA256_WITH_RSA,
    name,
    sequence(time(request.notBefore), time(request.notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    END_ENTITY_SIGNING_EXTENSIONS,
  );
  const signature = sign('sha256', tbsCertificate, privateKey);
  return {
    der: sequence(tbsCertificate, SHA256_WITH_RSA, bitString(signature)),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
