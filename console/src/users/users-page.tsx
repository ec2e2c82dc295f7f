/**
 * The tenant's users: everyone with `users:read` sees the list; `users:manage` adds the form
 * to create one (with a role in this workspace) and the role, disable and enable controls, and
 * the reset of an enrolled user's MFA (behind a confirmation: it ends every session of that
 * user). Those are step-up actions (MANAGE_USERS) when the policy lists them.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { PageHeader } from '../components/page-header';
import { useConfirm } from '../components/confirm-dialog';
import { FormMessage } from '../components/form-message';
import { ShowMore } from '../components/show-more';
import { StatusBadge } from '../components/status-badge';
import { useTransientMessage } from '../components/transient-message';
import { useCan, useCurrentUser } from '../session/current-user';

type User = Schemas['User'];
type Role = NonNullable<User['role']>;
const ROLES: Role[] = ['viewer', 'connector_builder', 'admin'];

export function UsersPage() {
  const { me } = useCurrentUser();
  const canManage = useCan('users:manage');
  const [users, setUsers] = useState<User[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useTransientMessage();
  const [confirmDialog, confirm] = useConfirm('confirm-user-change');
  const [resetting, setResetting] = useState<User | undefined>();
  const confirmation = useRef<HTMLDialogElement>(null);
  const table = useRef<HTMLTableElement>(null);

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/users', { params: { query: from ? { cursor: from } : {} } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setUsers((seen) => [...(from ? seen : []), ...outcome.data.users]);
    setCursor(outcome.data.next_cursor);
  }
  useEffect(() => void load(), []);

  async function create(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.POST('/v1/users', { body: { email, role, workspace_id: me.workspace_id, ...(password ? { password } : {}) } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setNotice(`${outcome.data.email} can now sign in.`);
    setEmail('');
    setPassword('');
    await load();
  }

  /** Role changes and disabling change what someone can do: each asks first. Enabling gives back what they had, at once. */
  async function act(user: User, what: 'disable' | 'enable' | Role) {
    if (what === 'disable' && !(await confirm({
      title: `Disable ${user.email}?`,
      body: <p>They are signed out everywhere and cannot sign in, and their access tokens stop working, until someone enables them again.</p>,
      confirmLabel: 'Disable the user',
    }))) return;
    if (what !== 'disable' && what !== 'enable' && !(await confirm({
      title: `Make ${user.email} ${what}?`,
      body: <p>Their role in this workspace changes from {roleIn(user) ?? 'none'} to {what}: from their next request they can do what a {what} may, and nothing more.</p>,
      confirmLabel: `Make them ${what}`,
      danger: false,
    }))) return false;
    const outcome = what === 'disable'
      ? await send(() => api.POST('/v1/users/{id}/disable', { params: { path: { id: user.id } } }))
      : what === 'enable'
        ? await send(() => api.POST('/v1/users/{id}/enable', { params: { path: { id: user.id } } }))
        : await send(() => api.PATCH('/v1/users/{id}', { params: { path: { id: user.id } }, body: { role: what, workspace_id: me.workspace_id } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setNotice(what === 'disable' ? `${user.email} is disabled.` : what === 'enable' ? `${user.email} is enabled.` : `${user.email} is now ${what} in this workspace.`);
    await load();
    return true;
  }

  function askToResetMfa(user: User) {
    setResetting(user);
    confirmation.current?.showModal();
  }

  /** Confirmed: the dialog closes first, so that a step-up prompt, when the policy asks, is the only one open. */
  async function resetMfa(event: Event) {
    event.preventDefault();
    const user = resetting;
    confirmation.current?.close();
    if (!user) return;
    const outcome = await send(() => api.POST('/v1/users/{id}/mfa/reset', { params: { path: { id: user.id } } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setNotice(`The MFA of ${user.email} is reset: their sessions ended, and their next sign-in sets up a new authenticator.`);
    await load();
  }

  const errors = fieldErrors(problem);
  const roleIn = (user: User) => user.memberships.find((m) => m.workspace_id === me.workspace_id)?.role;
  return (
    <main>
      <PageHeader title="Users" />
      <FormMessage message={formMessage(problem, ['email', 'password', 'role'])} />
      <FormMessage message={notice} tone="info" />
      {canManage && (
        <form onSubmit={(e) => void create(e)} aria-labelledby="new-user-title">
          <h2 id="new-user-title">New user in this workspace</h2>
          <Field id="email" label="Email" type="email" required value={email} error={errors.email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <Field id="password" label="First password (optional)" type="password" autocomplete="new-password" value={password} error={errors.password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <div class="field">
            <label for="role">Role</label>
            <select id="role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
            </select>
          </div>
          <button type="submit">Create the user</button>
        </form>
      )}
      <h2>Everyone in the tenant</h2>
      <table class="users stack" ref={table}>
        <caption class="visually-hidden">Users of the tenant</caption>
        <thead><tr><th scope="col">Email</th><th scope="col">Role here</th><th scope="col">Status</th><th scope="col">MFA</th>{canManage && <th scope="col">Actions</th>}</tr></thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td data-label="Email">{u.email}{u.tenant_admin ? ' (tenant admin)' : ''}</td>
              <td data-label="Role here">
                {canManage && u.id !== me.id ? (
                  <select aria-label={`Role of ${u.email}`} value={roleIn(u) ?? ''} onChange={(e) => {
                    const select = e.currentTarget;
                    // Cancelled: the select shows the role they still have.
                    void act(u, select.value as Role).then((done) => { if (!done) select.value = roleIn(u) ?? ''; });
                  }}>
                    {!roleIn(u) && <option value="">none</option>}
                    {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                  </select>
                ) : roleIn(u) ?? 'none'}
              </td>
              <td class="user-status" data-label="Status"><StatusBadge status={u.status} /></td>
              <td data-label="MFA">{u.mfa_enrolled ? 'enrolled' : 'not enrolled'}</td>
              {canManage && (
                <td class="row-actions">
                  {u.id !== me.id && (u.status === 'active'
                    ? <button type="button" class="danger small" onClick={() => void act(u, 'disable')} aria-label={`Disable ${u.email}`}>Disable</button>
                    : <button type="button" class="small" onClick={() => void act(u, 'enable')} aria-label={`Enable ${u.email}`}>Enable</button>)}
                  {u.id !== me.id && u.mfa_enrolled && (
                    <> <button type="button" class="danger small" onClick={() => askToResetMfa(u)} aria-label={`Reset MFA of ${u.email}`}>Reset MFA</button></>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMore shown={users.length} noun={['user', 'users']} more={cursor !== null} rows={table} onMore={() => load(cursor ?? undefined)} />
      {confirmDialog}
      <dialog ref={confirmation} aria-labelledby="reset-mfa-title" onClose={() => setResetting(undefined)}>
        <article>
        <form onSubmit={(e) => void resetMfa(e)}>
          <h2 id="reset-mfa-title">Reset the MFA of {resetting?.email}?</h2>
          <p>
            Their authenticator and backup codes are removed and every session they have ends at once. Their next
            sign-in sets up a new authenticator where your organisation's policy asks for one. Do this for someone
            who lost their device, or whose authenticator may be in someone else's hands.
          </p>
          <div class="actions">
            <button type="submit" class="danger">Reset MFA</button>
            <button type="button" class="secondary" onClick={() => confirmation.current?.close()}>Cancel</button>
          </div>
        </form>
        </article>
      </dialog>
    </main>
  );
}
