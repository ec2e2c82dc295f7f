/** The way back from the tenant's IdP: checks this tab's `state`, then shows the error or exchanges the `sso_code`. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { Link } from '../routing/link';
import { navigate, type Location } from '../routing/router';
import { session } from '../session/session';
import { takeSsoVerifier } from '../session/sso';

export function SsoCallbackPage({ location }: { location: Location }) {
  const [message, setMessage] = useState<string | undefined>();
  useEffect(() => {
    const error = location.query.get('error');
    const code = location.query.get('code');
    const verifier = takeSsoVerifier(location.query.get('state'));
    // The state first, for an error too: an answer to a sign-in this tab did not begin (a
    // crafted link) must not put its own error_description on the console's origin.
    if (!verifier) return setMessage('This sign-in did not start in this tab, or it was already used: sign in again.');
    if (error) return setMessage(location.query.get('error_description') ?? error);
    if (!code) return setMessage('The identity provider answered without a sign-in code: sign in again.');
    void send(() => api.POST('/v1/auth/token', { body: { grant_type: 'sso_code', code, code_verifier: verifier } })).then((outcome) => {
      if (!outcome.ok) return setMessage(outcome.problem.detail);
      session.signIn(outcome.data);
      navigate('/connections', { replace: true });
    });
  }, []);
  return (
    <main class="narrow">
      <h1>Signing in with your identity provider</h1>
      {message ? <><FormMessage message={message} /><p><Link href="/sign-in">Back to sign in</Link></p></> : <p role="status">One moment…</p>}
    </main>
  );
}
