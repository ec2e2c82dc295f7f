/**
 * Personal access tokens of the signed-in user: create one with scopes from the permission
 * registry (the caller's own permissions only), see the token once, rotate or revoke. Creating,
 * rotating and revoking are step-up actions: the prompt appears when the policy asks for it.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { CopyButton } from '../components/copy-button';
import { Field } from '../components/field';
import { useConfirm } from '../components/confirm-dialog';
import { FormMessage } from '../components/form-message';
import { PageHeader } from '../components/page-header';
import { StatusBadge } from '../components/status-badge';
import { useTransientMessage } from '../components/transient-message';
import { useCan, useCurrentUser } from '../session/current-user';
import { Timestamp } from '../components/timestamp';

type Token = Schemas['PersonalAccessToken'];

export function TokensPage() {
  const { me } = useCurrentUser();
  const canManage = useCan('tokens:manage');
  const [tokens, setTokens] = useState<Token[]>([]);
  const [registry, setRegistry] = useState<{ name: string; description: string }[]>([]);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [days, setDays] = useState('90');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [created, setCreated] = useState<Schemas['CreatedPersonalAccessToken'] | undefined>();
  const [notice, setNotice] = useTransientMessage();
  const [confirmDialog, confirm] = useConfirm('confirm-token');

  async function load() {
    const outcome = await send(() => api.GET('/v1/tokens'));
    if (!outcome.ok) return setProblem(outcome.problem);
    setTokens(outcome.data.tokens);
  }

  useEffect(() => {
    void load();
    void send(() => api.GET('/v1/permissions')).then((outcome) => {
      if (outcome.ok) setRegistry(outcome.data.permissions.filter((p) => me.permissions.includes(p.name)));
    });
  }, []);

  async function create(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.POST('/v1/tokens', { body: { name, scopes, expires_in_days: Number(days) } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setCreated(outcome.data);
    setName('');
    setScopes([]);
    await load();
  }

  async function rotate(token: Token) {
    const outcome = await send(() => api.POST('/v1/tokens/{id}/rotate', { params: { path: { id: token.id } } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setCreated(outcome.data);
    await load();
  }

  async function revoke(token: Token) {
    if (!(await confirm({
      title: `Revoke ${token.name}?`,
      body: <p>Every script or tool using it is refused from now on. A revoked token cannot be used again; make a new one if you need it back.</p>,
      confirmLabel: 'Revoke the token',
    }))) return;
    const outcome = await send(() => api.DELETE('/v1/tokens/{id}', { params: { path: { id: token.id } } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setNotice(`${token.name} is revoked.`);
    await load();
  }

  const errors = fieldErrors(problem);
  return (
    <main>
      <PageHeader title="Personal access tokens" />
      <p>A token acts as you, with the scopes you choose, for scripts and tools. It never manages credentials.</p>
      <FormMessage message={formMessage(problem, ['name', 'scopes', 'expires_in_days'])} />
      <FormMessage message={notice} tone="info" />
      {created && (
        <div role="status" class="secret-once">
          <p>Your new token <strong>{created.name}</strong>. Copy it now: it is not shown again.</p>
          <p><code id="new-token">{created.token}</code> <CopyButton value={created.token} label="Copy the token" /></p>
          <button type="button" onClick={() => setCreated(undefined)}>Done</button>
        </div>
      )}
      {canManage && (
        <form onSubmit={(e) => void create(e)} aria-labelledby="new-token-title">
          <h2 id="new-token-title">New token</h2>
          <Field id="name" label="Name" required maxLength={100} value={name} error={errors.name} onInput={(e) => setName(e.currentTarget.value)} />
          <fieldset aria-describedby={errors.scopes ? 'scopes-error' : undefined}>
            <legend>Scopes</legend>
            {registry.map((p) => (
              <div class="check" key={p.name}>
                <input type="checkbox" id={`scope-${p.name}`} checked={scopes.includes(p.name)} onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, p.name] : scopes.filter((s) => s !== p.name))} />
                <label for={`scope-${p.name}`}><code>{p.name}</code> {p.description}</label>
              </div>
            ))}
            {errors.scopes && <p class="field-error" id="scopes-error">{errors.scopes}</p>}
          </fieldset>
          <Field id="expires_in_days" label="Expires after (days, 1–365)" type="number" min={1} max={365} required value={days} error={errors.expires_in_days} onInput={(e) => setDays(e.currentTarget.value)} />
          <button type="submit">Create the token</button>
        </form>
      )}
      <h2>Your tokens</h2>
      {tokens.length === 0 ? <p>No tokens.</p> : (
        <table class="stack">
          <caption class="visually-hidden">Your personal access tokens</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">State</th>{canManage && <th scope="col">Actions</th>}</tr></thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td data-label="Name">{t.name}</td>
                <td data-label="Scopes">{t.scopes.join(', ')}</td>
                <td data-label="Expires">{t.expires_at ? <Timestamp value={t.expires_at} /> : 'never'}</td>
                <td data-label="Last used">{t.last_used_at ? <Timestamp value={t.last_used_at} /> : 'never'}</td>
                <td class="token-state" data-label="State"><StatusBadge status={t.revoked_at ? 'revoked' : 'active'} /></td>
                {canManage && (
                  <td>
                    {!t.revoked_at && <>
                      <button type="button" class="secondary small" onClick={() => void rotate(t)} aria-label={`Rotate ${t.name}`}>Rotate</button>{' '}
                      <button type="button" class="danger small" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>Revoke</button>
                    </>}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {confirmDialog}
    </main>
  );
}
