/** The tenant's MFA policy (tenant admins): the mode and the actions that need a recent MFA. */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { useCurrentUser } from '../session/current-user';

type Policy = Schemas['MfaPolicy'];
type Mode = Policy['mfa_mode'];
type Action = Policy['required_actions'][number];
const MODES: { mode: Mode; label: string }[] = [
  { mode: 'REQUIRED', label: 'Required: everyone enrolls at their next sign-in' },
  { mode: 'OPTIONAL', label: 'Optional: those who enrolled are asked' },
  { mode: 'OFF', label: 'Off' },
];
const ACTIONS: Action[] = ['LOGIN', 'CREATE_PAT', 'ROTATE_PAT', 'REVOKE_PAT', 'CHANGE_PASSWORD', 'MANAGE_USERS', 'UPDATE_IDP_CONFIG'];

export function MfaPolicyPage() {
  const { me } = useCurrentUser();
  const [policy, setPolicy] = useState<Policy | undefined>();
  const [mode, setMode] = useState<Mode>('REQUIRED');
  const [actions, setActions] = useState<Action[]>([]);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void send(() => api.GET('/v1/tenants/{id}/mfa-policy', { params: { path: { id: me.tenant_id } } })).then((outcome) => {
      if (!outcome.ok) return setProblem(outcome.problem);
      setPolicy(outcome.data);
      setMode(outcome.data.mfa_mode);
      setActions(outcome.data.required_actions);
    });
  }, []);

  async function save(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.PATCH('/v1/tenants/{id}/mfa-policy', { params: { path: { id: me.tenant_id } }, body: { mfa_mode: mode, required_actions: actions } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setPolicy(outcome.data);
    setSaved(true);
  }

  return (
    <main>
      <h1>MFA policy</h1>
      <FormMessage message={formMessage(problem, [])} />
      {saved && <FormMessage message="The policy is saved." tone="info" />}
      {policy && (
        <form onSubmit={(e) => void save(e)}>
          <fieldset>
            <legend>Mode</legend>
            {MODES.map((m) => (
              <div class="check" key={m.mode}>
                <input type="radio" name="mfa_mode" id={`mode-${m.mode}`} checked={mode === m.mode} onChange={() => { setMode(m.mode); setSaved(false); }} />
                <label for={`mode-${m.mode}`}>{m.label}</label>
              </div>
            ))}
          </fieldset>
          <fieldset>
            <legend>Actions that need an MFA of the last ten minutes</legend>
            {ACTIONS.map((a) => (
              <div class="check" key={a}>
                <input type="checkbox" id={`action-${a}`} checked={actions.includes(a)} onChange={(e) => { setActions(e.currentTarget.checked ? [...actions, a] : actions.filter((x) => x !== a)); setSaved(false); }} />
                <label for={`action-${a}`}>{a}</label>
              </div>
            ))}
          </fieldset>
          <button type="submit">Save the policy</button>
        </form>
      )}
    </main>
  );
}
