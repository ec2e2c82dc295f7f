/**
 * Test a connection: the provider is called for real; a failure lists each remediation item
 * (what is wrong, in which category) with its action copyable, e.g. the scope to grant.
 */
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { CopyButton } from '../components/copy-button';
import { FormMessage } from '../components/form-message';
import { Timestamp } from '../components/timestamp';

export function ConnectionTestPanel({ connectionId, onTested }: { connectionId: string; onTested: () => void }) {
  const [result, setResult] = useState<Schemas['ConnectionTestResult'] | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function test() {
    setBusy(true);
    const outcome = await send(() => api.POST('/v1/connections/{id}/test', { params: { path: { id: connectionId } } }));
    setBusy(false);
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setMessage(undefined);
    setResult(outcome.data);
    onTested();
  }

  return (
    <section aria-labelledby="test-title">
      <h2 id="test-title">Test</h2>
      <button type="button" onClick={() => void test()} disabled={busy}>{busy ? 'Testing…' : 'Test the connection'}</button>
      <FormMessage message={message} />
      {result && (
        <div role="status" class="test-result">
          <p>Test {result.status === 'success' ? 'passed' : 'failed'} at <Timestamp value={result.checked_at} />.</p>
          {result.remediation.length > 0 && (
            <ol class="remediation" aria-label="How to fix it">
              {result.remediation.map((item, i) => (
                <li key={i}>
                  <p><strong>{item.category}</strong>: {item.message}</p>
                  <p><code>{item.action}</code> <CopyButton value={item.action} label="Copy the action" /></p>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
