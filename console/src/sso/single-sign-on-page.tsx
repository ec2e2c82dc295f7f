/**
 * Single sign-on (tenant admins, `idp:manage`): the tenant's IdP, what to register at it, and
 * the email domains that route sign-in to it.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { type Problem } from '../api/problem';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { useCurrentUser } from '../session/current-user';
import { SSO_CALLBACK_PATH } from '../../../shared/console-paths';
import { DomainsPanel, type EmailDomain } from './domains-panel';
import { IdpForm } from './idp-form';

type IdpConfig = Schemas['IdpConfig'];

export function SingleSignOnPage() {
  const { me } = useCurrentUser();
  const [config, setConfig] = useState<IdpConfig | undefined>();
  const [domains, setDomains] = useState<EmailDomain[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const tenant = { params: { path: { id: me.tenant_id } } };

  async function loadDomains() {
    const outcome = await send(() => api.GET('/v1/tenants/{id}/domains', tenant));
    if (outcome.ok) setDomains(outcome.data.domains);
    else setProblem(outcome.problem);
  }

  useEffect(() => {
    if (!me.permissions.includes('idp:manage')) return;
    void Promise.all([
      send(() => api.GET('/v1/tenants/{id}/idp', tenant)).then((outcome) => {
        if (outcome.ok) setConfig(outcome.data);
        // 404: no IdP yet, the form creates one.
        else if (outcome.problem.status !== 404) setProblem(outcome.problem);
      }),
      loadDomains(),
    ]).then(() => setLoaded(true));
  }, []);

  if (!me.permissions.includes('idp:manage')) {
    return <main><h1>Single sign-on</h1><p>Only a tenant administrator manages the identity provider.</p></main>;
  }
  return (
    <main>
      <h1>Single sign-on</h1>
      <FormMessage message={problem?.detail} />
      <FormMessage message={notice} tone="info" />
      {config && (
        <dl class="details">
          <dt>Redirect URI / ACS URL to register at the IdP</dt><dd><code>{config.service_provider.redirect_uri}</code></dd>
          <dt>SAML service provider entity ID</dt><dd><code>{config.service_provider.entity_id}</code></dd>
          <dt>SAML metadata</dt><dd><a href={config.service_provider.metadata_url}>{config.service_provider.metadata_url}</a></dd>
        </dl>
      )}
      {loaded && (
        // Keyed by the saved version: a save or delete starts the form again from what the API holds.
        <IdpForm
          key={config?.updated_at ?? 'none'}
          tenantId={me.tenant_id}
          config={config}
          verifiedDomains={domains.filter((d) => d.status === 'verified').map((d) => d.domain)}
          consoleRedirectUri={`${window.location.origin}${SSO_CALLBACK_PATH}`}
          onSaved={(saved, message) => { setConfig(saved); setNotice(message); }}
        />
      )}
      <DomainsPanel tenantId={me.tenant_id} domains={domains} onChanged={loadDomains} />
    </main>
  );
}
