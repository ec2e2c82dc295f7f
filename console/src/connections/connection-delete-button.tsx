/** Deletes the connection after a confirmation (its schedule stops; the API keeps no undo). */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { send } from '../api/send';
import { useConfirm } from '../components/confirm-dialog';
import { FormMessage } from '../components/form-message';
import { navigate } from '../routing/router';

export function ConnectionDeleteButton({ connectionId, name }: { connectionId: string; name: string }) {
  const [message, setMessage] = useState<string | undefined>();
  const [confirmDialog, confirm] = useConfirm('confirm-delete-connection');

  async function remove() {
    if (!(await confirm({
      title: `Delete the connection ${name}?`,
      body: <p>Its schedule stops and its inventory and run history go with it. This cannot be undone.</p>,
      confirmLabel: 'Delete the connection',
    }))) return;
    const outcome = await send(() => api.DELETE('/v1/connections/{id}', { params: { path: { id: connectionId } } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    navigate('/connections');
  }

  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      <FormMessage message={message} />
      <button type="button" class="danger" onClick={() => void remove()}>Delete the connection</button>
      {confirmDialog}
    </section>
  );
}
