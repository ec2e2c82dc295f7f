/**
 * The step-up prompt: a modal dialog asking for an authenticator (or backup) code when an
 * action needs a recent MFA. `send` waits on it and retries the action with the fresh token.
 *
 * A user with no authenticator (`/v1/me` says `mfa_enrolled: false`: an SSO user whose IdP
 * asserted no second factor, or one signed in before the tenant made MFA required) has no code
 * to give: the dialog then says so and offers the ways to a fresh MFA instead, setting up an
 * authenticator on the account page or, after a sign-in through the IdP, signing in there
 * again. Either way the pending action ends as cancelled, as Cancel ends it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import { send, takeStepUpProblem } from '../api/send';
import { registerStepUpPrompt } from '../api/step-up';
import { Link } from '../routing/link';
import { useCurrentUser } from '../session/current-user';
import { session } from '../session/session';
import { endSession } from '../session/sign-out';
import { beginSsoSignIn } from '../session/sso';
import { Field } from './field';
import { FormMessage } from './form-message';

type Answer = { code: string } | { backup_code: string } | undefined;

export function StepUpDialog() {
  const { me } = useCurrentUser();
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

  /** A new sign-in at the tenant's IdP (whose policy decides on its multi-factor); this session ends first. */
  async function signInAgainThroughIdp() {
    const found = await send(() => api.GET('/v1/auth/discover', { params: { query: { email: me.email } } }));
    if (!found.ok || !found.data.sso) return setMessage(found.ok ? 'Your organisation no longer signs in through an identity provider.' : found.problem.detail);
    const { tenant, sso } = found.data;
    finish(undefined);
    await endSession();
    await beginSsoSignIn(tenant, sso.start_url);
  }

  return (
    <dialog ref={dialog} aria-labelledby="step-up-title" onCancel={(event) => { event.preventDefault(); finish(undefined); }}>
      <article>
      {me.mfa_enrolled ? (
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
            <button type="button" class="secondary" onClick={() => finish(undefined)}>Cancel</button>
          </div>
        </form>
      ) : (
        <div>
          <h2 id="step-up-title">A multi-factor check is needed</h2>
          <p>This action needs a recent multi-factor check, and you have no authenticator app set up to confirm it with.</p>
          <FormMessage message={message} />
          <ul>
            <li><Link href="/account" onFollow={() => finish(undefined)}>Set up an authenticator on your account page</Link>, then try the action again: it will ask for a code from the app.</li>
            {session.signInMethod() === 'sso' && (
              <li>
                Or sign in again through your organisation's identity provider, with its multi-factor check, then try the action again.{' '}
                <button type="button" class="link" onClick={() => void signInAgainThroughIdp()}>Sign in again through your identity provider</button>
              </li>
            )}
          </ul>
          <div class="actions">
            <button type="button" onClick={() => finish(undefined)}>Cancel</button>
          </div>
        </div>
      )}
      </article>
    </dialog>
  );
}
