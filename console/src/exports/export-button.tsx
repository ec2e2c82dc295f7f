/**
 * "Export CSV" for a list: `POST /v1/exports` with the list's source and filters, then its
 * status read again until it has succeeded (or failed), then the file fetched with the
 * session's token and handed to the browser as a download. What happens is said beside the
 * button (a status region), so the wait is not silent.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { operations } from '../api/schema';
import { send } from '../api/send';

export type ExportRequest = operations['exportsCreate']['requestBody']['content']['application/json'];

type State = { phase: 'idle' } | { phase: 'working'; text: string } | { phase: 'done'; text: string } | { phase: 'failed'; text: string };

const POLL_MS = 1000;

export function ExportButton({ label, request, fileName }: { label: string; request: Omit<ExportRequest, 'format'>; fileName: string }) {
  const [state, setState] = useState<State>({ phase: 'idle' });
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  async function run() {
    setState({ phase: 'working', text: 'Preparing the export…' });
    const created = await send(() => api.POST('/v1/exports', { body: { ...request, format: 'csv' } }));
    if (!created.ok) return setState({ phase: 'failed', text: created.problem.detail });
    let status: string;
    let rows = 0;
    let error: string | null = null;
    // Read until it has ended (the first read also gives the row count of one that ended at once).
    for (;;) {
      const read = await send(() => api.GET('/v1/exports/{export_id}', { params: { path: { export_id: created.data.export_id } } }));
      if (!alive.current) return;
      if (!read.ok) return setState({ phase: 'failed', text: read.problem.detail });
      ({ status, rows, error } = read.data);
      if (status !== 'queued' && status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    if (status === 'failed') return setState({ phase: 'failed', text: `The export failed: ${error ?? 'try again'}.` });
    const content = await send(() => api.GET('/v1/exports/{export_id}/content', { params: { path: { export_id: created.data.export_id } }, parseAs: 'blob' }));
    if (!content.ok) return setState({ phase: 'failed', text: content.problem.detail });
    const url = URL.createObjectURL(content.data);
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    if (alive.current) setState({ phase: 'done', text: `Exported ${rows} ${rows === 1 ? 'row' : 'rows'} to ${fileName}.` });
  }

  return (
    <div class="export">
      <button type="button" class="secondary" disabled={state.phase === 'working'} onClick={() => void run()}>{label}</button>
      <span role="status" class={state.phase === 'failed' ? 'form-error' : 'hint'}>{state.phase === 'idle' ? '' : state.text}</span>
    </div>
  );
}
