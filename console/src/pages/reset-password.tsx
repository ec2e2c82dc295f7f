/** The page the reset email links to (`/reset-password?token=…`): a new password for the token. */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { Link } from '../routing/link';
import type { Location } from '../routing/router';

export function ResetPasswordPage({ location }: { location: Location }) {
  const token = location.query.get('token');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [done, setDone] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.POST('/v1/auth/password/reset', { body: { token: token ?? '', new_password: password } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setDone(true);
  }

  return (
    <main class="narrow">
      <h1>Choose a new password</h1>
      {!token && <FormMessage message="This link has no token: open the link from the email again." />}
      {done ? (
        <p role="status">Your new password is set: <Link href="/sign-in">sign in</Link> with it.</p>
      ) : token && (
        <form onSubmit={(e) => void submit(e)}>
          <FormMessage message={formMessage(problem, ['new_password'])} />
          <Field id="new_password" label="New password (12 to 128 characters)" type="password" autocomplete="new-password" minLength={12} maxLength={128} required value={password} error={fieldErrors(problem).new_password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <button type="submit">Set the password</button>
        </form>
      )}
    </main>
  );
}
