/**
 * The way back from the tenant's IdP, for both round trips this tab may have begun (the
 * pending one in sessionStorage says which, and only when the `state` is the one it sent):
 * a sign-in exchanges the `sso_code` with the PKCE verifier; a link takes its outcome
 * (`?linked=true`, or the IdP's or the API's `error_description`) to the account page.
 * The state is checked first, for an error too: an answer to a round trip this tab did not
 * begin (a crafted link) must not put its own error_description on the console's origin.
 */
import { useEffect, useState } from 'preact/hooks';
import { identityLinkOutcome } from '../account/identity-link-outcome';
import { api } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { Link } from '../routing/link';
import { navigate, type Location } from '../routing/router';
import { session } from '../session/session';
import { takePendingSso } from '../session/sso';

export function SsoCallbackPage({ location }: { location: Location }) {
  const [message, setMessage] = useState<string | undefined>();
  useEffect(() => {
    const error = location.query.get('error');
    const description = location.query.get('error_description');
    const code = location.query.get('code');
    const pending = takePendingSso(location.query.get('state'));
    if (!pending) return setMessage('This sign-in did not start in this tab, or it was already used: sign in again.');
    if (pending.purpose === 'link') {
      identityLinkOutcome.set(
        error ? { linked: false, message: description ?? error }
          : location.query.get('linked') === 'true' ? { linked: true }
            : { linked: false, message: 'the identity provider\'s answer said neither linked nor refused' },
      );
      navigate('/account', { replace: true });
      return;
    }
    if (error) return setMessage(description ?? error);
    if (!code) return setMessage('The identity provider answered without a sign-in code: sign in again.');
    void send(() => api.POST('/v1/auth/token', { body: { grant_type: 'sso_code', code, code_verifier: pending.verifier } })).then((outcome) => {
      if (!outcome.ok) return setMessage(outcome.problem.detail);
      session.signIn(outcome.data, 'sso');
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
