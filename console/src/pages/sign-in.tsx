/**
 * Sign in: the email first (`GET /v1/auth/discover` says password or SSO), then the password,
 * or a redirect to the tenant's IdP with this client's own `state` and PKCE challenge. A login
 * that needs MFA continues on the enrollment or challenge page.
 */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { useFocusOnChange } from '../components/focus-on-change';
import { Link } from '../routing/link';
import { navigate } from '../routing/router';
import { pendingLogin } from '../session/pending-login';
import { session } from '../session/session';
import { beginSsoSignIn } from '../session/sso';

export function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [tenant, setTenant] = useState<string | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(problem);
  // One step's form replaces the other's: focus goes to the field typed in next.
  useFocusOnChange(tenant, () => document.getElementById(tenant === undefined ? 'email' : 'password'));

  async function discover(event: Event) {
    event.preventDefault();
    setBusy(true);
    const outcome = await send(() => api.GET('/v1/auth/discover', { params: { query: { email } } }));
    setBusy(false);
    if (!outcome.ok) return setProblem(outcome.problem.code === 'not_found' ? { ...outcome.problem, errors: [{ path: 'email', message: 'No organisation signs in with this email domain.' }] } : outcome.problem);
    setProblem(undefined);
    if (outcome.data.methods.includes('sso') && outcome.data.sso) {
      await beginSsoSignIn(outcome.data.tenant, outcome.data.sso.start_url);
      return;
    }
    setTenant(outcome.data.tenant);
  }

  async function signIn(event: Event) {
    event.preventDefault();
    setBusy(true);
    const outcome = await send(() => api.POST('/v1/auth/login', { body: { email, password, ...(tenant ? { tenant } : {}) } }));
    setBusy(false);
    if (!outcome.ok) return setProblem(outcome.problem);
    const answer = outcome.data;
    if ('mfa_required' in answer) {
      pendingLogin.set({ mfaToken: answer.mfa_token, email });
      navigate(answer.enrollment_required ? '/mfa/enroll' : '/mfa/challenge');
      return;
    }
    session.signIn(answer, 'password');
    navigate('/connections');
  }

  return (
    <main class="narrow">
      <h1>Sign in to Tessera</h1>
      <FormMessage message={formMessage(problem, ['email', 'password'])} />
      {tenant === undefined ? (
        <form onSubmit={(e) => void discover(e)}>
          <Field id="email" label="Work email" type="email" autocomplete="username" required value={email} error={errors.email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>Continue</button>
        </form>
      ) : (
        <form onSubmit={(e) => void signIn(e)}>
          <p>Signing in as <strong>{email}</strong> <button type="button" class="link" onClick={() => { setTenant(undefined); setPassword(''); }}>Use another email</button></p>
          <Field id="password" label="Password" type="password" autocomplete="current-password" required value={password} error={errors.password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>Sign in</button>
        </form>
      )}
      <p><Link href="/forgot-password">Forgot your password?</Link></p>
    </main>
  );
}
