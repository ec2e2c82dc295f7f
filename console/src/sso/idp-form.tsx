/**
 * Create, edit or delete the tenant's IdP (OIDC or SAML). The client secret is a password
 * input that is never filled back; each problem's `errors[].path` lands beside its field.
 */
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { useConfirm } from '../components/confirm-dialog';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { TextAreaField } from '../components/text-area-field';
import { createBody, emptyValues, updateBody, valuesOf, type IdpFormValues, type ProviderType, type Role } from './idp-form-values';

type IdpConfig = Schemas['IdpConfig'];
const FIELD_PATHS = ['provider_type', 'issuer', 'client_id', 'client_secret', 'saml_metadata', 'saml_subject_attribute', 'email_domains', 'allowed_redirect_uris', 'default_role'];
const ROLES: Role[] = ['viewer', 'connector_builder', 'admin'];

export function IdpForm({ tenantId, config, verifiedDomains, consoleRedirectUri, onSaved }: {
  tenantId: string;
  config: IdpConfig | undefined;
  verifiedDomains: string[];
  consoleRedirectUri: string;
  onSaved: (config: IdpConfig | undefined, message: string) => void;
}) {
  const [values, setValues] = useState<IdpFormValues>(() => (config ? valuesOf(config) : emptyValues(consoleRedirectUri)));
  const [problem, setProblem] = useState<Problem | undefined>();
  const [confirmDialog, confirm] = useConfirm('confirm-delete-idp');
  const set = <K extends keyof IdpFormValues>(key: K, value: IdpFormValues[K]) => setValues({ ...values, [key]: value });

  async function save(event: Event) {
    event.preventDefault();
    const path = { params: { path: { id: tenantId } } };
    const outcome = config
      ? await send(() => api.PATCH('/v1/tenants/{id}/idp', { ...path, body: updateBody(values) }))
      : await send(() => api.POST('/v1/tenants/{id}/idp', { ...path, body: createBody(values) }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setValues(valuesOf(outcome.data));
    onSaved(outcome.data, 'The identity provider is saved.');
  }

  async function remove() {
    if (!(await confirm({
      title: 'Delete the identity provider?',
      body: <p>Its users can no longer sign in through it. This cannot be undone.</p>,
      confirmLabel: 'Delete the identity provider',
    }))) return;
    const outcome = await send(() => api.DELETE('/v1/tenants/{id}/idp', { params: { path: { id: tenantId } } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setValues(emptyValues(consoleRedirectUri));
    onSaved(undefined, 'The identity provider is deleted.');
  }

  const errors = byField(fieldErrors(problem));
  // Domains already claimed stay listed even if no longer verified, so an edit does not drop them silently.
  const domainChoices = [...new Set([...verifiedDomains, ...values.emailDomains])];
  return (
    <form onSubmit={(e) => void save(e)} aria-labelledby="idp-heading">
      <h2 id="idp-heading">{config ? 'Identity provider' : 'Set up an identity provider'}</h2>
      <FormMessage message={formMessage(problem, Object.keys(fieldErrors(problem)).filter((p) => FIELD_PATHS.includes(p.split('.')[0]!)))} />
      <fieldset>
        <legend>Protocol</legend>
        {(['oidc', 'saml'] as ProviderType[]).map((type) => (
          <div class="check" key={type}>
            <input type="radio" name="provider_type" id={`provider-${type}`} checked={values.providerType === type} onChange={() => set('providerType', type)} />
            <label for={`provider-${type}`}>{type === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'}</label>
          </div>
        ))}
      </fieldset>
      {values.providerType === 'oidc' ? (
        <>
          <Field id="issuer" label="Issuer URL" type="url" value={values.issuer} error={errors.issuer} onInput={(e) => set('issuer', e.currentTarget.value)} />
          <Field id="client_id" label="Client ID" value={values.clientId} error={errors.client_id} onInput={(e) => set('clientId', e.currentTarget.value)} />
          <Field
            id="client_secret" label="Client secret" type="password" autoComplete="new-password" value={values.clientSecret} error={errors.client_secret}
            hint={config?.client_secret_set ? 'A secret is stored; leave blank to keep it.' : undefined}
            onInput={(e) => set('clientSecret', e.currentTarget.value)}
          />
        </>
      ) : (
        <>
          <TextAreaField id="saml_metadata" label="IdP metadata (XML)" rows={8} value={values.samlMetadata} error={errors.saml_metadata} onInput={(e) => set('samlMetadata', e.currentTarget.value)} />
          {config?.saml && <SamlMetadataReading saml={config.saml} />}
          <Field id="saml_subject_attribute" label="Subject attribute (optional)" hint="Used when the IdP sends neither a persistent NameID nor subject-id / pairwise-id, e.g. uid." value={values.samlSubjectAttribute} error={errors.saml_subject_attribute} onInput={(e) => set('samlSubjectAttribute', e.currentTarget.value)} />
        </>
      )}
      <fieldset aria-describedby={errors.email_domains ? 'email_domains-error' : undefined}>
        <legend>Email domains signed in through this IdP</legend>
        {domainChoices.length === 0 && <p class="hint">No verified domain yet: add one below and publish its TXT record.</p>}
        {domainChoices.map((d) => (
          <div class="check" key={d}>
            <input type="checkbox" id={`idp-domain-${d}`} checked={values.emailDomains.includes(d)} onChange={(e) => set('emailDomains', e.currentTarget.checked ? [...values.emailDomains, d] : values.emailDomains.filter((x) => x !== d))} />
            <label for={`idp-domain-${d}`}>{d}</label>
          </div>
        ))}
        {errors.email_domains && <p class="field-error" id="email_domains-error">{errors.email_domains}</p>}
      </fieldset>
      <TextAreaField id="allowed_redirect_uris" label="Allowed redirect URIs (one per line)" rows={3} value={values.redirectUris} error={errors.allowed_redirect_uris} onInput={(e) => set('redirectUris', e.currentTarget.value)} />
      <div class="field">
        <label for="default_role">Role of users created at their first sign-in</label>
        <select id="default_role" value={values.defaultRole} onChange={(e) => set('defaultRole', e.currentTarget.value as Role)}>
          {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      </div>
      <div class="check">
        <input type="checkbox" id="idp-active" checked={values.active} onChange={(e) => set('active', e.currentTarget.checked)} />
        <label for="idp-active">Active (sign-in goes through this IdP)</label>
      </div>
      <div class="actions">
        <button type="submit">{config ? 'Save the identity provider' : 'Create the identity provider'}</button>
        {config && <button type="button" class="danger" onClick={() => void remove()}>Delete the identity provider</button>}
      </div>
      {confirmDialog}
    </form>
  );
}

/**
 * What Tessera read from the saved metadata: what the admin compares with the IdP's console
 * (a fingerprint that differs means a wrong or rotated certificate; responses will not verify).
 */
function SamlMetadataReading({ saml }: { saml: NonNullable<IdpConfig['saml']> }) {
  return (
    <div class="saml-reading">
      <h3>Read from the saved metadata</h3>
      <dl class="details">
        <dt>IdP entity ID</dt><dd><code id="saml-entity-id">{saml.entity_id}</code></dd>
        <dt>Single sign-on URL (HTTP-Redirect)</dt><dd><code id="saml-sso-url">{saml.sso_url}</code></dd>
        <dt>Signing certificate SHA-256</dt>
        <dd><ul class="plain" id="saml-certificates">{saml.signing_certificate_sha256.map((f) => <li key={f}><code>{f}</code></li>)}</ul></dd>
        <dt>Signed AuthnRequests</dt><dd id="saml-signed-requests">{saml.want_authn_requests_signed ? 'yes, the IdP wants them signed' : 'not asked for'}</dd>
      </dl>
    </div>
  );
}

/** Errors of list items (`allowed_redirect_uris.1`, `email_domains.0`) shown beside the list's field. */
function byField(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const [field, index] = path.split('.');
    out[field!] ??= index === undefined ? message : `line ${Number(index) + 1}: ${message}`;
  }
  return out;
}
