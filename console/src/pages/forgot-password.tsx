/** Forgotten password: the API always answers 202 (no account enumeration), so the page does too. */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { Link } from '../routing/link';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [sent, setSent] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.POST('/v1/auth/password/forgot', { body: { email } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setSent(true);
  }

  return (
    <main class="narrow">
      <h1>Reset your password</h1>
      {sent ? (
        <p role="status">If an account uses {email}, an email with a reset link is on its way.</p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <FormMessage message={formMessage(problem, ['email'])} />
          <Field id="email" label="Work email" type="email" autocomplete="username" required value={email} error={fieldErrors(problem).email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <button type="submit">Send the reset link</button>
        </form>
      )}
      <p><Link href="/sign-in">Back to sign in</Link></p>
    </main>
  );
}
