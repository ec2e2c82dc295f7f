/**
 * The local email transport: the outbox writes files a mail client can open, in RFC 5322. The
 * SES transport of the aws stage is tested through its client (shared/aws/sesv2-client.ts) against a local SES in
 * aws-stage-clients.test.ts.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdGenerator } from '../../shared/ids';
import { createOutboxEmailSender } from '../../shared/email/outbox-email-sender';
import { formatRfc5322Message } from '../../shared/email/rfc5322-message';
import { passwordResetEmail } from '../../shared/email/templates';

const message = passwordResetEmail({ to: 'ada@acme.example', resetLink: 'https://id.acme.example/reset-password?token=tsr_reset_abc', expiresInMinutes: 30 });

describe('outbox sender', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tessera-outbox-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes one complete .eml per message, named in time order, readable only by its owner', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    const clock = { now: () => new Date(now) };
    const sender = createOutboxEmailSender({ dir: path.join(dir, 'nested'), from: 'Tessera <no-reply@tessera.local>', clock, ids: createIdGenerator(() => now) });
    await sender.send(message);
    now += 1000;
    await sender.send({ ...message, to: 'bob@acme.example' });
    const files = await readdir(path.join(dir, 'nested'));
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    const [first, second] = await Promise.all(files.sort().map((f) => readFile(path.join(dir, 'nested', f), 'utf8')));
    expect(first).toContain('To: ada@acme.example\r\n');
    expect(second).toContain('To: bob@acme.example\r\n');
    expect(first).toContain('Date: Mon, 23 Nov 2026 10:00:00 +0000\r\n');
    expect((await stat(path.join(dir, 'nested', files[0]!))).mode & 0o777).toBe(0o600);
  });
});

describe('RFC 5322 rendering', () => {
  const envelope = { from: 'Tessera <no-reply@tessera.local>', date: new Date('2026-11-23T10:00:00Z'), messageId: 'msg_1@tessera.local' };

  it('renders header fields, a blank line and the text part with CRLF line ends', () => {
    const eml = formatRfc5322Message({ to: 'ada@acme.example', subject: 'Hello', text: 'line one\nline two\n' }, envelope);
    expect(eml).toBe(
      [
        'From: Tessera <no-reply@tessera.local>',
        'To: ada@acme.example',
        'Subject: Hello',
        'Date: Mon, 23 Nov 2026 10:00:00 +0000',
        'Message-ID: <msg_1@tessera.local>',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 7bit',
        '',
        'line one',
        'line two',
        '',
      ].join('\r\n'),
    );
  });

  it('encodes a non-ASCII subject (RFC 2047) and marks a non-ASCII body 8bit', () => {
    const eml = formatRfc5322Message({ to: 'zoë@acme.example', subject: 'Réinitialiser', text: 'Bonjour Zoë' }, envelope);
    expect(eml).toContain(`Subject: =?UTF-8?B?${Buffer.from('Réinitialiser').toString('base64')}?=\r\n`);
    expect(eml).toContain('Content-Transfer-Encoding: 8bit\r\n');
  });

  it('refuses header injection and over-long lines', () => {
    expect(() => formatRfc5322Message({ to: 'a@b.example\r\nBcc: evil@x.example', subject: 's', text: 't' }, envelope)).toThrow(/line break/);
    expect(() => formatRfc5322Message({ to: 'a@b.example', subject: 'hi\nBcc: evil@x.example', text: 't' }, envelope)).toThrow(/line break/);
    expect(() => formatRfc5322Message({ to: 'a@b.example', subject: 's', text: 'x'.repeat(999) }, envelope)).toThrow(/longer/);
  });
});
