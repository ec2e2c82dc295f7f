/**
 * The mass-removal guard's way out: a run held by it (an error of category `safety`) can be run
 * again accepting the removals, after a real confirmation that says what will be deleted. Used
 * by the connection's run history and by the run's own page.
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../api/client';
import { ConfirmDialog } from '../components/confirm-dialog';

type Run = Schemas['Run'];

export const isHeldByGuard = (run: Run) => run.errors.some((error) => error.category === 'safety');

export function AcceptRemovalsButton({ held, onConfirmed }: { held: Run; onConfirmed: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setConfirming(true)}>Run again and accept the removals</button>
      <ConfirmDialog
        id="confirm-removals"
        open={confirming}
        title="Accept the removals?"
        confirmLabel="Run and delete them"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onConfirmed();
        }}
      >
        <p>The last run held back removals because it found far fewer entities than before:</p>
        <ul>{held.errors.filter((error) => error.category === 'safety').map((error, i) => <li key={i}>{error.message}</li>)}</ul>
        <p>A new run will start and delete from the inventory every entity it does not find. Do this only if they really left the provider; a token with fewer rights or a changed scope looks the same.</p>
      </ConfirmDialog>
    </>
  );
}
