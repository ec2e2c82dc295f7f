/** The connection's earlier tests, newest first and paged, each with what it asked to fix. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import { send } from '../api/send';
import type { operations } from '../api/schema';
import { FormMessage } from '../components/form-message';
import { ShowMore } from '../components/show-more';
import { Timestamp } from '../components/timestamp';

// The list's item has no named schema in the document: taken from the operation's answer.
type Test = operations['connectionTestsList']['responses'][200]['content']['application/json']['tests'][number];

/** `version` changes after a new test, so the list is read again. */
export function ConnectionTestsPanel({ connectionId, version }: { connectionId: string; version: number }) {
  const [tests, setTests] = useState<Test[]>([]);
  const table = useRef<HTMLTableElement>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections/{id}/tests', { params: { path: { id: connectionId }, query: from ? { cursor: from } : {} } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setTests((seen) => [...(from ? seen : []), ...outcome.data.tests]);
    setCursor(outcome.data.next_cursor);
  }

  useEffect(() => void load(), [connectionId, version]);

  return (
    <section aria-labelledby="tests-title">
      <h2 id="tests-title">Test history</h2>
      <FormMessage message={message} />
      {tests.length === 0 ? <p>Not tested yet.</p> : (
        <table class="stack" ref={table}>
          <caption class="visually-hidden">Tests of this connection, newest first</caption>
          <thead><tr><th scope="col">Checked</th><th scope="col">Result</th><th scope="col">To fix</th></tr></thead>
          <tbody>
            {tests.map((t) => (
              <tr key={t.test_id}>
                <td data-label="Checked"><Timestamp value={t.checked_at} /></td>
                <td class="test-status" data-label="Result">{t.status === 'success' ? 'passed' : 'failed'}</td>
                <td data-label="To fix">{t.remediation.length === 0 ? '—' : <ul>{t.remediation.map((r, i) => <li key={i}><strong>{r.category}</strong>: {r.message}</li>)}</ul>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={tests.length} noun={['test', 'tests']} label="Show older tests" more={cursor !== null} rows={table} onMore={() => load(cursor ?? undefined)} />
    </section>
  );
}
