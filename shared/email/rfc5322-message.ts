/**
 * Renders an email as an RFC 5322 message with one MIME text part (RFC 2045/2046).
 *
 * The body is sent as-is (7bit, or 8bit when it holds non-ASCII UTF-8) rather than
 * quoted-printable, so a link in it stays one readable line: a reader of the `.eml` file, or a
 * test, finds `token=…` verbatim. Lines are CRLF-terminated and far below the 998-octet limit.
 */
import type { EmailMessage } from './email-sender';

const MAX_LINE_OCTETS = 998;
const isAscii = (text: string) => /^[\x20-\x7e\t\n]*$/.test(text);

/** RFC 2047 encoded-word for a header value that is not plain ASCII. */
function headerText(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error('A header value cannot hold a line break');
  return isAscii(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function address(value: string): string {
  // Addresses come from validated input; a line break would still let one inject a header.
  if (/[\r\n]/.test(value)) throw new Error('An email address cannot hold a line break');
  return value;
}

/** RFC 5322 date-time, e.g. `Mon, 23 Nov 2026 17:45:00 +0000`. */
export function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

export interface Rfc5322Envelope {
  from: string;
  date: Date;
  /** Unique id, without angle brackets, e.g. `evt_…@tessera`. */
  messageId: string;
}

export function formatRfc5322Message(message: EmailMessage, envelope: Rfc5322Envelope): string {
  const body = message.text.replace(/\r\n/g, '\n').split('\n');
  for (const line of body) {
    if (Buffer.byteLength(line, 'utf8') > MAX_LINE_OCTETS) throw new Error('An email line is longer than RFC 5322 allows');
  }
  const headers = [
    `From: ${address(envelope.from)}`,
    `To: ${address(message.to)}`,
    `Subject: ${headerText(message.subject)}`,
    `Date: ${rfc5322Date(envelope.date)}`,
    `Message-ID: <${envelope.messageId}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Transfer-Encoding: ${isAscii(message.text) ? '7bit' : '8bit'}`,
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body.join('\r\n')}`;
}
