/**
 * "Export CSV" for a list: `POST /v1/exports` with the list's source and filters, then its
 * status read again until it has succeeded (or failed), then the file fetched with the
 * session's token and handed to the browser as a download. What happens is said beside the
 * button (a status region), so the wait is not silent.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { exportsApi, type ExportRequest } from './exports-api';
import { send } from '../api/send';

type State = { phase: 'idle' } | { phase: 'working'; text: string } | { phase: 'done'; text: string } | { phase: 'failed'; text: string };

const POLL_MS = 1000;

export function ExportButton({ label, request, fileName }: { label: string; request: Omit<ExportRequest, 'format'>; fileName: string }) {
  const [state, setState] = useState<State>({ phase: 'idle' });
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  async function run() {
    setState({ phase: 'working', text: 'Preparing the export…' });
    const created = await send(() => exportsApi.POST('/v1/exports', { body: { ...request, format: 'csv' } }));
    if (!created.ok) return setState({ phase: 'failed', text: created.problem.detail });
    let status = created.data.status;
    let rows = 0;
    while (status === 'queued' || status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (!alive.current) return;
      const read = await send(() => exportsApi.GET('/v1/exports/{export_id}', { params: { path: { export_id: created.data.export_id } } }));
      if (!read.ok) return setState({ phase: 'failed', text: read.problem.detail });
      status = read.data.status;
      rows = read.data.rows;
    }
    if (status === 'failed') return setState({ phase: 'failed', text: 'The export failed; try again.' });
    const content = await send(() => exportsApi.GET('/v1/exports/{export_id}/content', { params: { path: { export_id: created.data.export_id } }, parseAs: 'blob' }));
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
