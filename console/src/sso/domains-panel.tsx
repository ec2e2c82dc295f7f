/**
 * The tenant's email domains (`idp:manage`): add one (pending, with the TXT record to publish),
 * check it now, remove it. Only verified domains route sign-in, so the IdP form offers those.
 */
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { useConfirm } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';

export type EmailDomain = Schemas['EmailDomain'];

export function DomainsPanel({ tenantId, domains, onChanged }: { tenantId: string; domains: EmailDomain[]; onChanged: () => Promise<void> }) {
  const [domain, setDomain] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [confirmDialog, confirm] = useConfirm('confirm-remove-domain');

  async function settle(outcome: { ok: true } | { ok: false; problem: Problem }, message: string) {
    if (!outcome.ok) {
      setNotice(undefined);
      return setProblem(outcome.problem);
    }
    setProblem(undefined);
    setNotice(message);
    await onChanged();
  }

  async function add(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.POST('/v1/tenants/{id}/domains', { params: { path: { id: tenantId } }, body: { domain } }));
    await settle(outcome, `${domain} added: publish its TXT record, then check it.`);
    if (outcome.ok) setDomain('');
  }

  async function verify(name: string) {
    const outcome = await send(() => api.POST('/v1/tenants/{id}/domains/{domain}/verify', { params: { path: { id: tenantId, domain: name } } }));
    await settle(outcome, `${name} is verified.`);
  }

  async function remove(name: string) {
    if (!(await confirm({
      title: `Remove ${name}?`,
      body: <p>Sign-in stops routing {name} to this tenant at once, and the identity provider no longer serves it. Adding it again needs a new DNS check.</p>,
      confirmLabel: `Remove ${name}`,
    }))) return;
    const outcome = await send(() => api.DELETE('/v1/tenants/{id}/domains/{domain}', { params: { path: { id: tenantId, domain: name } } }));
    await settle(outcome, `${name} removed.`);
  }

  const errors = fieldErrors(problem);
  return (
    <section aria-labelledby="domains-heading">
      <h2 id="domains-heading">Email domains</h2>
      <p class="hint">A domain routes sign-in (and just-in-time users) to this tenant once a DNS TXT record proves you control it.</p>
      <FormMessage message={formMessage(problem, ['domain'])} />
      <FormMessage message={notice} tone="info" />
      <form class="inline-form" onSubmit={(e) => void add(e)}>
        <Field id="domain" label="New email domain" required value={domain} error={errors.domain} onInput={(e) => setDomain(e.currentTarget.value)} />
        <button type="submit">Add the domain</button>
      </form>
      <table class="stack">
        <caption class="visually-hidden">Email domains of the tenant</caption>
        <thead><tr><th scope="col">Domain</th><th scope="col">Status</th><th scope="col">TXT record to publish</th><th scope="col">Actions</th></tr></thead>
        <tbody>
          {domains.map((d) => (
            <tr key={d.domain}>
              <td data-label="Domain">{d.domain}</td>
              <td class="domain-status" data-label="Status">{d.status}{d.last_failure ? ` (${d.last_failure})` : ''}</td>
              <td data-label="TXT record to publish">
                {d.status === 'verified' ? (
                  d.method === 'operator' ? 'verified by the operator' : 'published'
                ) : (
                  <dl class="details">
                    <dt>Name</dt><dd><code>{d.verification.name}</code></dd>
                    <dt>Value</dt><dd><code class="domain-txt-value">{d.verification.value}</code> <CopyButton value={d.verification.value} label={`Copy the TXT value of ${d.domain}`} /></dd>
                  </dl>
                )}
              </td>
              <td class="actions">
                {d.status !== 'verified' && <button type="button" onClick={() => void verify(d.domain)}>Check {d.domain} now</button>}
                <button type="button" class="danger" onClick={() => void remove(d.domain)}>Remove {d.domain}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {confirmDialog}
    </section>
  );
}
