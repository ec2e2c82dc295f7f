/**
 * The signed-in user's password change, with the current password. The API ends every other
 * session and keeps this one; a wrong current password (`invalid_credentials`) is shown beside
 * that field.
 */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';

export function PasswordChangeForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [done, setDone] = useState(false);

  async function change(event: Event) {
    event.preventDefault();
    const outcome = await send(() => api.POST('/v1/me/password', { body: { current_password: current, new_password: next } }));
    setDone(outcome.ok);
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setCurrent('');
    setNext('');
  }

  const errors = fieldErrors(problem);
  const wrongCurrent = problem?.code === 'invalid_credentials' ? 'is not your current password' : undefined;
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <FormMessage message={wrongCurrent ? undefined : formMessage(problem, ['current_password', 'new_password'])} />
      {done && <FormMessage message="Your password is changed; your other sessions are signed out." tone="info" />}
      <form onSubmit={(e) => void change(e)}>
        <Field id="current_password" label="Current password" type="password" autoComplete="current-password" required value={current} error={wrongCurrent ?? errors.current_password} onInput={(e) => setCurrent(e.currentTarget.value)} />
        <Field id="new_password" label="New password" type="password" autoComplete="new-password" required hint="At least 12 characters; common passwords are refused." value={next} error={errors.new_password} onInput={(e) => setNext(e.currentTarget.value)} />
        <button type="submit">Change the password</button>
      </form>
    </section>
  );
}
