/**
 * Reads the local outbox the way a person would read the mail: each `.eml` file parsed into
 * its RFC 5322 header fields and text body, oldest first.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMessage {
  file: string;
  /** Lower-cased field names. */
  headers: Record<string, string>;
  body: string;
  raw: string;
}

export async function readOutbox(dir: string): Promise<OutboxMessage[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(path.join(dir, file), 'utf8');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) throw new Error(`${file}: no blank line between header and body`);
      const headers: Record<string, string> = {};
      for (const line of raw.slice(0, split).split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) throw new Error(`${file}: not a header field: ${line}`);
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      return { file, headers, body: raw.slice(split + 4), raw };
    }),
  );
}

/** The reset token of the link in a password reset email. */
export function resetTokenOf(message: OutboxMessage): string {
  const match = /\/reset-password\?token=([^\s&]+)/.exec(message.body);
  if (!match) throw new Error(`${message.file}: no reset link`);
  return decodeURIComponent(match[1]!);
}
