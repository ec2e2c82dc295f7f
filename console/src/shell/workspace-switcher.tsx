/**
 * The workspace switcher: the workspaces listed for the caller; choosing one exchanges the
 * refresh token for a pair scoped to it (`POST /v1/auth/token` with `workspace_id`).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { refreshSession, send } from '../api/send';
import { session } from '../session/session';

export function WorkspaceSwitcher({ onSwitched }: { onSwitched: () => void }) {
  const [workspaces, setWorkspaces] = useState<Schemas['Workspace'][]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    void send(() => api.GET('/v1/workspaces')).then((outcome) => {
      if (outcome.ok) setWorkspaces(outcome.data.workspaces);
    });
  }, []);
  if (workspaces.length < 2) return null;
  return (
    <div class="workspace-switcher">
      <label for="workspace">Workspace</label>
      <select
        id="workspace"
        value={session.workspaceId()}
        onChange={(e) => {
          void refreshSession(e.currentTarget.value).then((switched) => {
            setFailed(!switched);
            if (switched) onSwitched();
          });
        }}
      >
        {workspaces.map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
      </select>
      {failed && <span role="alert">You have no role in that workspace.</span>}
    </div>
  );
}
