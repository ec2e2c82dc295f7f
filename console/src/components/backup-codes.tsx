/** Backup codes shown once (after enrollment or a regeneration), with copy and download actions. */
import type { ComponentChildren } from 'preact';
import { CopyButton } from './copy-button';

export function BackupCodes({ codes, children }: { codes: string[]; children?: ComponentChildren }) {
  const text = codes.join('\n') + '\n';
  return (
    <>
      <ul class="backup-codes" aria-label="Backup codes">{codes.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
      <div class="actions">
        <CopyButton value={text} label="Copy the codes" />
        <a class="button" download="tessera-backup-codes.txt" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}>Download the codes</a>
        {children}
      </div>
    </>
  );
}
