/**
 * First-login MFA enrollment (a REQUIRED policy, with the pending login's `mfa_token`): the
 * shared enrollment steps, then the ten backup codes, shown this once, with copy and download
 * actions before the console opens with the session the confirmation completed.
 */
import { useState } from 'preact/hooks';
import { BackupCodes } from '../components/backup-codes';
import { TotpEnrollment } from '../components/totp-enrollment';
import { Link } from '../routing/link';
import { navigate } from '../routing/router';
import { pendingLogin } from '../session/pending-login';
import { session, type TokenPair } from '../session/session';

export function MfaEnrollPage() {
  const [pending] = useState(() => pendingLogin.get());
  const [backupCodes, setBackupCodes] = useState<string[] | undefined>();
  const [tokens, setTokens] = useState<TokenPair | undefined>();

  if (backupCodes) {
    return (
      <main class="narrow">
        <h1>Save your backup codes</h1>
        <p>Each code signs you in once when your authenticator is not at hand. They are shown only now: copy or download them and keep them somewhere safe.</p>
        <BackupCodes codes={backupCodes}>
          <button type="button" onClick={() => { if (tokens) session.signIn(tokens, 'password'); navigate(tokens ? '/connections' : '/sign-in'); }}>I saved them, continue</button>
        </BackupCodes>
      </main>
    );
  }

  if (!pending) {
    return <main class="narrow"><h1>Set up multi-factor authentication</h1><p>Sign in first. <Link href="/sign-in">Sign in</Link></p></main>;
  }

  return (
    <main class="narrow">
      <h1>Set up multi-factor authentication</h1>
      <p>Your organisation requires an authenticator app. Scan the QR code with it, or enter the secret by hand, then type the 6-digit code it shows.</p>
      <TotpEnrollment
        mfaToken={pending.mfaToken}
        email={pending.email}
        onConfirmed={({ backup_codes, access_token, tenant_id, workspace_id, refresh_token }) => {
          pendingLogin.set(undefined);
          setBackupCodes(backup_codes);
          if (access_token && tenant_id && workspace_id) setTokens({ access_token, tenant_id, workspace_id, refresh_token });
        }}
      />
    </main>
  );
}
