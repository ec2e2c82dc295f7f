/**
 * Local mode: every email becomes an `.eml` file in the outbox folder, named so that a listing
 * sorts by time. The file is written under a temporary name and renamed, so a reader polling
 * the folder never sees half a message.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../clock';
import type { IdGenerator } from '../ids';
import type { EmailMessage, EmailSender } from './email-sender';
import { formatRfc5322Message } from './rfc5322-message';

export interface OutboxOptions {
  dir: string;
  from: string;
  clock: Clock;
  ids: IdGenerator;
}

export function createOutboxEmailSender(options: OutboxOptions): EmailSender {
  return {
    async send(message: EmailMessage): Promise<void> {
      const id = options.ids.next('msg');
      const date = options.clock.now();
      const eml = formatRfc5322Message(message, { from: options.from, date, messageId: `${id}@tessera.local` });
      await mkdir(options.dir, { recursive: true });
      const file = path.join(options.dir, `${id}.eml`);
      await writeFile(`${file}.tmp`, eml, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
    },
  };
}
