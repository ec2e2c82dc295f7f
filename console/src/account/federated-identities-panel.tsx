/**
 * The IdP identities linked to the signed-in user, and linking another one: the API answers
 * `POST /v1/me/federated-identities/link` with the IdP's address, the user signs in there, and
 * the IdP's answer comes back through the SSO return page, which brings the outcome here.
 * Unlinking is not offered: the API lets tenant admins unlink
 * (`DELETE /v1/users/{id}/federated-identities/{identity_id}`), not the user.
 *
 * Whether the tenant has an active IdP is known to the API only: nothing a non-admin may read
 * says so, and asking on every visit would start a link transaction each time. So the action
 * is offered, and the link call's 404 (no active single sign-on) takes it away with a sentence.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { type Problem } from '../api/problem';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { Timestamp } from '../components/timestamp';
import { forgetSsoLink, prepareSsoLink, ssoReturnUrl } from '../session/sso';
import { identityLinkOutcome, type IdentityLinkOutcome } from './identity-link-outcome';

type FederatedIdentity = Schemas['FederatedIdentity'];

export function FederatedIdentitiesPanel() {
  const [identities, setIdentities] = useState<FederatedIdentity[] | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  // Taken once, at the first render after the return page: a reload shows the list alone.
  const [outcome] = useState<IdentityLinkOutcome | undefined>(() => identityLinkOutcome.take());
  const [linkRefusal, setLinkRefusal] = useState<string | undefined>();
  const [noSso, setNoSso] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void send(() => api.GET('/v1/me/federated-identities')).then((answer) => {
      if (answer.ok) setIdentities(answer.data.federated_identities);
      else setProblem(answer.problem);
    });
  }, []);

  async function link() {
    setBusy(true);
    setLinkRefusal(undefined);
    const state = prepareSsoLink();
    const answer = await send(() => api.POST('/v1/me/federated-identities/link', { body: { redirect_uri: ssoReturnUrl(), state } }));
    if (answer.ok) {
      window.location.assign(answer.data.authorization_url);
      return;
    }
    forgetSsoLink();
    setBusy(false);
    if (answer.problem.status === 404) return setNoSso(true);
    // The one validation failure a user can meet: the IdP configuration does not list this console.
    if (answer.problem.errors?.some((e) => e.path === 'redirect_uri')) {
      return setLinkRefusal(`The identity provider settings do not list this console's return address (${ssoReturnUrl()}) as a redirect URI; ask a tenant admin to add it.`);
    }
    setLinkRefusal(answer.problem.detail);
  }

  return (
    <section aria-labelledby="identities-heading">
      <h2 id="identities-heading">Single sign-on identities</h2>
      <FormMessage message={problem?.detail} />
      {outcome?.linked === true && <FormMessage tone="info" message="Your identity provider account is linked: you can now also sign in with it." />}
      {outcome?.linked === false && <FormMessage message={`The identity provider account was not linked: ${outcome.message}`} />}
      {identities?.length === 0 && <p>No identity provider account is linked to you.</p>}
      {identities && identities.length > 0 && (
        <table class="stack">
          <caption class="visually-hidden">Identity provider accounts linked to you</caption>
          <thead><tr><th scope="col">Protocol</th><th scope="col">Issuer</th><th scope="col">Subject</th><th scope="col">Linked</th></tr></thead>
          <tbody>
            {identities.map((i) => (
              <tr key={i.id}><td data-label="Protocol">{i.provider_type.toUpperCase()}</td><td data-label="Issuer">{i.issuer}</td><td data-label="Subject">{i.subject}</td><td data-label="Linked"><Timestamp value={i.created_at} /></td></tr>
            ))}
          </tbody>
        </table>
      )}
      {noSso ? (
        <p>Your organisation has no active single sign-on, so there is no identity provider account to link.</p>
      ) : (
        <>
          <p>Sign in at your organisation's identity provider to link your account there to this one: it must have your email address, verified, and be linked to no other account.</p>
          <FormMessage message={linkRefusal} />
          <div class="actions">
            <button type="button" disabled={busy} onClick={() => void link()}>Link an identity provider account</button>
          </div>
        </>
      )}
    </section>
  );
}
