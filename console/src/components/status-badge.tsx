/**
 * A status as a badge: the API's word, tinted by what it means to the reader (good, needs a
 * look, failed, in progress). The word is the information; the colour only helps.
 */
const TONES: Record<string, 'good' | 'warn' | 'bad' | 'info'> = {
  succeeded: 'good', healthy: 'good', active: 'good', verified: 'good', enrolled: 'good', passed: 'good', ok: 'good',
  partial: 'warn', degraded: 'warn', pending: 'warn', overdue: 'warn', never_run: 'warn', awaiting_confirmation: 'warn',
  failed: 'bad', error: 'bad', disabled: 'bad', revoked: 'bad', expired: 'bad',
  queued: 'info', running: 'info',
};

export function statusTone(status: string): 'good' | 'warn' | 'bad' | 'info' | 'neutral' {
  return TONES[status] ?? 'neutral';
}

/** `label` replaces the shown word (the API's value stays the badge's tone). */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span class={`badge badge-${statusTone(status)}`}>{label ?? status.replaceAll('_', ' ')}</span>;
}
