/**
 * Setting up an authenticator from the account page, for a user who has none: one whose tenant
 * never made them enroll (an OPTIONAL policy), or who signs in through an IdP that asserted no
 * second factor. The session's access token enrolls (no new session comes back: API.md gives
 * tokens only when the enrollment completes a login), then the ten backup codes are shown once.
 * The confirmation does not count as a step-up: the next listed action still asks for a code.
 */
import { useState } from 'preact/hooks';
import { BackupCodes } from '../components/backup-codes';
import { FormMessage } from '../components/form-message';
import { TotpEnrollment } from '../components/totp-enrollment';
import { useCurrentUser } from '../session/current-user';

export function AuthenticatorSetupPanel({ onEnrolled }: { onEnrolled: () => void }) {
  const { me, reload } = useCurrentUser();
  const [started, setStarted] = useState(false);
  const [backupCodes, setBackupCodes] = useState<string[] | undefined>();

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
        <>
          <p>You have no authenticator app set up. With one, you can confirm actions that need a recent multi-factor check (your organisation's policy lists them), and sign in with its code when the policy asks.</p>
          <button type="button" onClick={() => setStarted(true)}>Set up an authenticator</button>
        </>
      )}
    </section>
  );
}
