/**
 * Local mode's audit anchor: one file per table under the data directory, opened for append
 * only, one JSON line per recorded head. Nothing in Tessera ever rewrites or truncates it.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../clock';
import type { ChainLink } from '../store/table-client';
import { anchorChainName, bySeq, type AuditAnchor, type AuditChainRef } from './audit-anchor';

interface AnchorLine {
  chain: string;
  seq: number;
  digest: string;
  recorded_at: string;
}

export function createFileAuditAnchor(options: { file: string; clock: Clock }): AuditAnchor {
  return {
    async record(chain: AuditChainRef, head: ChainLink): Promise<void> {
      const line: AnchorLine = { chain: anchorChainName(chain), seq: head.seq, digest: head.digest, recorded_at: options.clock.now().toISOString() };
      await mkdir(path.dirname(options.file), { recursive: true });
      // O_APPEND: each line lands after the last, whoever else is appending.
      await appendFile(options.file, `${JSON.stringify(line)}\n`, { flag: 'a', mode: 0o600 });
    },
    async heads(chain: AuditChainRef): Promise<ChainLink[]> {
      let text: string;
      try {
        text = await readFile(options.file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const name = anchorChainName(chain);
      const heads: ChainLink[] = [];
      for (const raw of text.split('\n')) {
        if (raw.trim() === '') continue;
        const line = JSON.parse(raw) as Partial<AnchorLine>;
        if (line.chain === name && typeof line.seq === 'number' && typeof line.digest === 'string') heads.push({ seq: line.seq, digest: line.digest });
      }
      return heads.sort(bySeq);
    },
  };
}
