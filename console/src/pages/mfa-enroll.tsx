/**
 * First-login MFA enrollment: the QR code of the otpauth URI and the secret as text (for apps
 * that cannot scan), a code to confirm, then the ten backup codes, shown this once, with copy
 * and download actions before the console opens.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { BackupCodes } from '../components/backup-codes';
import { CopyButton } from '../components/copy-button';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { QrCode } from '../components/qr-code';
import { Link } from '../routing/link';
import { navigate } from '../routing/router';
import { pendingLogin } from '../session/pending-login';
import { session, type TokenPair } from '../session/session';

export function MfaEnrollPage() {
  const pending = pendingLogin.get();
  const [enrollment, setEnrollment] = useState<{ secret: string; otpauth_uri: string } | undefined>();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [backupCodes, setBackupCodes] = useState<string[] | undefined>();
  const [tokens, setTokens] = useState<TokenPair | undefined>();

  useEffect(() => {
    if (!pending) return;
    void send(() => api.POST('/v1/mfa/enroll/start', { body: { mfa_token: pending.mfaToken } })).then((outcome) => {
      if (outcome.ok) setEnrollment(outcome.data);
      else setProblem(outcome.problem);
    });
  }, []);

  async function confirm(event: Event) {
    event.preventDefault();
    if (!pending) return;
    const outcome = await send(() => api.POST('/v1/mfa/enroll/confirm', { body: { mfa_token: pending.mfaToken, code: code.trim() } }));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    pendingLogin.set(undefined);
    const { backup_codes, access_token, tenant_id, workspace_id, refresh_token } = outcome.data;
    setBackupCodes(backup_codes);
    if (access_token && tenant_id && workspace_id) setTokens({ access_token, tenant_id, workspace_id, refresh_token });
  }

  if (backupCodes) {
    return (
      <main class="narrow">
        <h1>Save your backup codes</h1>
        <p>Each code signs you in once when your authenticator is not at hand. They are shown only now: copy or download them and keep them somewhere safe.</p>
        <BackupCodes codes={backupCodes}>
          <button type="button" onClick={() => { if (tokens) session.signIn(tokens); navigate(tokens ? '/connections' : '/sign-in'); }}>I saved them, continue</button>
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
      <FormMessage message={formMessage(problem, ['code'])} />
      {enrollment && (
        <>
          <QrCode value={enrollment.otpauth_uri} label={`QR code for the authenticator app of ${pending.email}`} />
          <p>Secret: <code id="mfa-secret">{enrollment.secret}</code> <CopyButton value={enrollment.secret} label="Copy the secret" /></p>
          <form onSubmit={(e) => void confirm(e)}>
            <Field id="code" label="6-digit code" autocomplete="one-time-code" inputMode="numeric" pattern="[0-9]{6}" required value={code} error={fieldErrors(problem).code} onInput={(e) => setCode(e.currentTarget.value)} />
            <button type="submit">Confirm</button>
          </form>
        </>
      )}
    </main>
  );
}
