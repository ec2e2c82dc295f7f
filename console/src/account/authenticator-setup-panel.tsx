/**
 * Setting up an authenticator from the account page, for a user who has none: one whose tenant
 * never made them enroll (an OPTIONAL policy), or who signs in through an IdP that asserted no
 * second factor. The session's access token enrolls with the proof that its holder owns the
 * account (API.md, "MFA"): the current password, asked first when the session began with one;
 * an SSO session needs a sign-in at the IdP in the last 10 minutes instead (older, the step-up
 * prompt offers that sign-in), or the password when the account has one after all. No new
 * session comes back (API.md gives tokens only when the enrollment completes a login), then the
 * ten backup codes are shown once. The confirmation does not count as a step-up: the next
 * listed action still asks for a code.
 */
import { useState } from 'preact/hooks';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { BackupCodes } from '../components/backup-codes';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { TotpEnrollment } from '../components/totp-enrollment';
import { useCurrentUser } from '../session/current-user';
import { session } from '../session/session';

export function AuthenticatorSetupPanel({ onEnrolled }: { onEnrolled: () => void }) {
  const { me, reload } = useCurrentUser();
  const [started, setStarted] = useState(false);
  const [backupCodes, setBackupCodes] = useState<string[] | undefined>();
  const [askPassword, setAskPassword] = useState(session.signInMethod() !== 'sso');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();

  function start(event: Event) {
    event.preventDefault();
    setProblem(undefined);
    setStarted(true);
  }

  /** Back to the offer, the reason beside the password field when it is the password's. */
  function refused(answer: Problem) {
    setStarted(false);
    setPassword('');
    // An account with a password after all (an SSO session of a local user): ask for it.
    if (fieldErrors(answer).current_password) setAskPassword(true);
    setProblem(answer);
  }

  const wrongPassword = problem?.code === 'invalid_credentials' ? 'That is not your current password.' : undefined;
  const passwordError = wrongPassword ?? fieldErrors(problem).current_password;
  return (
    <section aria-labelledby="authenticator-heading">
      <h2 id="authenticator-heading">Set up an authenticator</h2>
      {backupCodes ? (
        <>
          <FormMessage tone="info" message="Your authenticator is set up: actions that need a multi-factor check now ask for its code." />
          <p>Your backup codes, shown only now: copy or download them and keep them somewhere safe. Each one signs you in once when your authenticator is not at hand.</p>
          <BackupCodes codes={backupCodes} />
        </>
      ) : started ? (
        <>
          <p>Scan the QR code with your authenticator app, or enter the secret by hand, then type the 6-digit code it shows.</p>
          <TotpEnrollment
            email={me.email}
            currentPassword={askPassword ? password : undefined}
            onStartRefused={refused}
            onConfirmed={({ backup_codes }) => {
              setBackupCodes(backup_codes);
              onEnrolled();
              // /v1/me now says enrolled: the page and the step-up prompt follow it.
              void reload();
            }}
            // Enrolled meanwhile (another tab): the page shows the account as it is.
            onAlreadyEnrolled={() => void reload()}
          />
        </>
      ) : (
        <form onSubmit={start}>
          <p>You have no authenticator app set up. With one, you can confirm actions that need a recent multi-factor check (your organisation's policy lists them), and sign in with its code when the policy asks.</p>
          <FormMessage message={passwordError ? undefined : formMessage(problem, ['current_password'])} />
          {askPassword && (
            <Field
              id="enrollment_password"
              label="Your password, to confirm it is you"
              hint="The authenticator will guard your account, so setting it up asks for your password again."
              type="password"
              autocomplete="current-password"
              required
              value={password}
              error={passwordError}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
          <button type="submit">Set up an authenticator</button>
        </form>
      )}
    </section>
  );
}
