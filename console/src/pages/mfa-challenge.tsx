/** The MFA challenge of a login: a code from the authenticator app, or one backup code. */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { Link } from '../routing/link';
import { navigate } from '../routing/router';
import { pendingLogin } from '../session/pending-login';
import { session } from '../session/session';

export function MfaChallengePage() {
  const pending = pendingLogin.get();
  const [code, setCode] = useState('');
  const [useBackup, setUseBackup] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  if (!pending) return <main class="narrow"><h1>Multi-factor check</h1><p>Sign in first. <Link href="/sign-in">Sign in</Link></p></main>;

  async function submit(event: Event) {
    event.preventDefault();
    const value = code.trim();
    const outcome = await send(() => api.POST('/v1/mfa/challenge', { body: useBackup ? { mfa_token: pending!.mfaToken, backup_code: value } : { mfa_token: pending!.mfaToken, code: value } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    pendingLogin.set(undefined);
    session.signIn(outcome.data, 'password');
    navigate('/connections');
  }

  const field = useBackup ? 'backup_code' : 'code';
  return (
    <main class="narrow">
      <h1>Multi-factor check</h1>
      <FormMessage message={formMessage(problem, [field])} />
      <form onSubmit={(e) => void submit(e)}>
        {useBackup
          ? <Field id="backup_code" label="Backup code" autocomplete="off" required value={code} error={fieldErrors(problem).backup_code} onInput={(e) => setCode(e.currentTarget.value)} />
          : <Field id="code" label="Code from your authenticator app" autocomplete="one-time-code" inputMode="numeric" required value={code} error={fieldErrors(problem).code} onInput={(e) => setCode(e.currentTarget.value)} />}
        <button type="submit">Verify</button>
      </form>
      <p><button type="button" class="link" onClick={() => { setUseBackup(!useBackup); setCode(''); setProblem(undefined); }}>{useBackup ? 'Use the authenticator app' : 'Use a backup code instead'}</button></p>
    </main>
  );
}
