/**
 * The IdP identities linked to the signed-in user (read only: the API offers unlinking to
 * tenant admins, `DELETE /v1/users/{id}/federated-identities/{identity_id}`, not to the user).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { type Problem } from '../api/problem';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';

type FederatedIdentity = Schemas['FederatedIdentity'];

export function FederatedIdentitiesPanel() {
  const [identities, setIdentities] = useState<FederatedIdentity[] | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();

  useEffect(() => {
    void send(() => api.GET('/v1/me/federated-identities')).then((outcome) => {
      if (outcome.ok) setIdentities(outcome.data.federated_identities);
      else setProblem(outcome.problem);
    });
  }, []);

  return (
    <section aria-labelledby="identities-heading">
      <h2 id="identities-heading">Single sign-on identities</h2>
      <FormMessage message={problem?.detail} />
      {identities?.length === 0 && <p>No identity provider account is linked to you.</p>}
      {identities && identities.length > 0 && (
        <table>
          <caption class="visually-hidden">Identity provider accounts linked to you</caption>
          <thead><tr><th scope="col">Protocol</th><th scope="col">Issuer</th><th scope="col">Subject</th><th scope="col">Linked</th></tr></thead>
          <tbody>
            {identities.map((i) => (
              <tr key={i.id}><td>{i.provider_type.toUpperCase()}</td><td>{i.issuer}</td><td>{i.subject}</td><td>{i.created_at}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
