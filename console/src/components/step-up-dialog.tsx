/**
 * The step-up prompt: a modal dialog asking for an authenticator (or backup) code when an
 * action needs a recent MFA. `send` waits on it and retries the action with the fresh token.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { takeStepUpProblem } from '../api/send';
import { registerStepUpPrompt } from '../api/step-up';
import { Field } from './field';
import { FormMessage } from './form-message';

type Answer = { code: string } | { backup_code: string } | undefined;

export function StepUpDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const resolver = useRef<((answer: Answer) => void) | undefined>(undefined);
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<string | undefined>();

  useEffect(() => registerStepUpPrompt(() => new Promise<Answer>((resolve) => {
    resolver.current = resolve;
    setCode('');
    setMessage(takeStepUpProblem()?.detail);
    dialog.current?.showModal();
  })), []);

  const finish = (answer: Answer) => {
    dialog.current?.close();
    resolver.current?.(answer);
    resolver.current = undefined;
  };

  return (
    <dialog ref={dialog} aria-labelledby="step-up-title" onCancel={(event) => { event.preventDefault(); finish(undefined); }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const value = code.trim();
          finish(/^\d{6}$/.test(value) ? { code: value } : { backup_code: value });
        }}
      >
        <h2 id="step-up-title">Confirm it is you</h2>
        <p>This action needs a recent multi-factor check. Enter the code from your authenticator app, or a backup code.</p>
        <FormMessage message={message} />
        <Field id="step-up-code" label="Authentication code" autocomplete="one-time-code" inputMode="numeric" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
        <div class="actions">
          <button type="submit">Confirm</button>
          <button type="button" onClick={() => finish(undefined)}>Cancel</button>
        </div>
      </form>
    </dialog>
  );
}
