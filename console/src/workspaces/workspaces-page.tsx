/**
 * The tenant's workspaces (`workspaces:manage`): create one, and hand a workspace's ownership
 * to another active user of the tenant (the API makes them its admin and audits the transfer).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { useConfirm } from '../components/confirm-dialog';
import { FormMessage } from '../components/form-message';
import { PageHeader } from '../components/page-header';
import { Timestamp } from '../components/timestamp';
import { useTransientMessage } from '../components/transient-message';

type Workspace = Schemas['Workspace'];
type User = Schemas['User'];

export function WorkspacesPage() {
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const [users, setUsers] = useState<User[]>([]);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useTransientMessage();
  const [confirmDialog, confirm] = useConfirm('confirm-owner-transfer');

  async function load() {
    const outcome = await send(() => api.GET('/v1/workspaces'));
    if (!outcome.ok) return setProblem(outcome.problem);
    setWorkspaces(outcome.data.workspaces);
  }

  useEffect(() => {
    void load();
    void send(() => api.GET('/v1/users', { params: { query: { limit: 100 } } })).then((outcome) => {
      if (outcome.ok) setUsers(outcome.data.users.filter((u) => u.status === 'active'));
    });
  }, []);

  async function create(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.POST('/v1/workspaces', { body: { name } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setNotice(`Workspace ${outcome.data.name} created.`);
    setName('');
    await load();
  }

  /** Asks first: the new owner becomes the workspace's admin. true when the transfer was made. */
  async function transfer(workspace: Workspace, newOwnerId: string): Promise<boolean> {
    if (!(await confirm({
      title: `Transfer ${workspace.name} to ${emailOf(newOwnerId)}?`,
      body: <p>{emailOf(newOwnerId)} becomes the owner of {workspace.name} and its admin, with every permission in it. {emailOf(workspace.owner_id)} stays a member with the role they have.</p>,
      confirmLabel: 'Transfer ownership',
    }))) return false;
    const outcome = await send(() => api.POST('/v1/workspaces/{id}/owner-transfer', { params: { path: { id: workspace.id } }, body: { new_owner_id: newOwnerId } }));
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return false;
    }
    setProblem(undefined);
    setNotice(`${workspace.name} now belongs to ${emailOf(newOwnerId)}.`);
    await load();
    return true;
  }

  const emailOf = (id: string) => users.find((u) => u.id === id)?.email ?? id;
  const errors = fieldErrors(problem);
  return (
    <main>
      <PageHeader title="Workspaces" />
      <FormMessage message={formMessage(problem, ['name'])} />
      <FormMessage message={notice} tone="info" />
      <form class="inline-form" onSubmit={(e) => void create(e)}>
        <Field id="name" label="New workspace name" required maxLength={100} value={name} error={errors.name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">Create the workspace</button>
      </form>
      <table class="stack">
        <caption class="visually-hidden">Workspaces of the tenant</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Owner</th><th scope="col">Created</th></tr></thead>
        <tbody>
          {workspaces.map((w) => (
            <tr key={w.id}>
              <td data-label="Name">{w.name}</td>
              <td data-label="Owner">
                <select aria-label={`Owner of ${w.name}`} value={w.owner_id} onChange={(e) => {
                  const select = e.currentTarget;
                  // Cancelled or refused: the select shows the owner it still has.
                  void transfer(w, select.value).then((done) => { if (!done) select.value = w.owner_id; });
                }}>
                  {!users.some((u) => u.id === w.owner_id) && <option value={w.owner_id}>{w.owner_id}</option>}
                  {users.map((u) => <option key={u.id} value={u.id}>{u.email}</option>)}
                </select>
              </td>
              <td data-label="Created"><Timestamp value={w.created_at} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      {confirmDialog}
    </main>
  );
}
