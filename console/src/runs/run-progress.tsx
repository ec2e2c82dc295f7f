/**
 * What a run has done so far (its `progress`): the phase, requests, pages, items written, time
 * spent waiting for rate limits, and each track's state. Polled numbers are not announced (a
 * live region would read them out every second); the run's status is, where it is shown.
 */
import type { Schemas } from '../api/client';

type Progress = Schemas['RunProgress'];

export const PHASE_LABEL: Record<Progress['phase'], string> = { reading: 'Reading the provider', sweeping: 'Removing what is gone', finalizing: 'Finishing' };
const TRACK_STATUS_LABEL: Record<Progress['tracks'][string]['status'], string> = { pending: 'waiting', reading: 'reading', done: 'done', refused: 'refused by the provider' };

/** One line: "Reading the provider: 3 pages, 12 requests, 240 items written". */
export function progressSummary(progress: Progress): string {
  const parts = [`${progress.pages} ${progress.pages === 1 ? 'page' : 'pages'}`, `${progress.requests} ${progress.requests === 1 ? 'request' : 'requests'}`, `${progress.items_written} items written`];
  if (progress.throttled_seconds > 0) parts.push(`${progress.throttled_seconds} s waiting for rate limits`);
  return `${PHASE_LABEL[progress.phase]}: ${parts.join(', ')}`;
}

export function RunProgress({ progress, active }: { progress: Progress; active: boolean }) {
  const tracks = Object.entries(progress.tracks).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section aria-labelledby="run-progress-title">
      <h2 id="run-progress-title">{active ? 'Progress' : 'How it went'}</h2>
      {active && <progress aria-labelledby="run-progress-title" />}
      <dl class="details run-progress">
        <dt>Phase</dt><dd>{PHASE_LABEL[progress.phase]}</dd>
        <dt>Provider requests</dt><dd>{progress.requests}</dd>
        <dt>Pages read</dt><dd>{progress.pages}</dd>
        <dt>Items written</dt><dd>{progress.items_written}</dd>
        <dt>Waiting for rate limits</dt><dd>{progress.throttled_seconds} s</dd>
      </dl>
      {tracks.length > 0 && (
        <table class="run-tracks stack">
          <caption>What it reads</caption>
          <thead><tr><th scope="col">Track</th><th scope="col">State</th><th scope="col">Pages</th></tr></thead>
          <tbody>{tracks.map(([name, track]) => <tr key={name}><th scope="row" data-label="Track">{name}</th><td data-label="State">{TRACK_STATUS_LABEL[track.status]}</td><td data-label="Pages">{track.pages}</td></tr>)}</tbody>
        </table>
      )}
    </section>
  );
}
