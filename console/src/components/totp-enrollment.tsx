/**
 * A TOTP enrollment, from its start to the confirming code: the QR code of the otpauth URI and
 * the secret as text (for apps that cannot scan), then a code from the app. The API takes it
 * with either credential (API.md, "MFA"): the `mfa_token` of a first login under a REQUIRED
 * policy (`/mfa/enroll`), or the session's access token (the account page) when `mfaToken` is
 * absent, with the proof that the caller owns the account (`currentPassword`; an SSO user's
 * recent IdP sign-in needs none). What follows the confirmation (the backup codes, a session)
 * is the caller's, and so is a refused start when it takes `onStartRefused`.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import type { operations } from '../api/schema';
import { send } from '../api/send';
import { CopyButton } from './copy-button';
import { Field } from './field';
import { FormMessage } from './form-message';
import { QrCode } from './qr-code';

/** The backup codes, plus the token response fields when the enrollment completes a login. */
export type EnrollmentConfirmed = operations['mfaEnrollConfirm']['responses'][200]['content']['application/json'];

export interface TotpEnrollmentProps {
  /** The pending login's token; without it the access token of the session enrolls. */
  mfaToken?: string | undefined;
  /** Whose authenticator this is, for the QR code's accessible name. */
  email: string;
  onConfirmed: (answer: EnrollmentConfirmed) => void;
  /** The start answered 409: TOTP is enrolled already (in another tab, say). */
  onAlreadyEnrolled?: () => void;
  /** From a session: the account's current password, which the start needs for a user who has one. */
  currentPassword?: string | undefined;
  /** Any other refusal of the start (a wrong password, say); without it the problem shows here. */
  onStartRefused?: (problem: Problem) => void;
}

export function TotpEnrollment({ mfaToken, email, onConfirmed, onAlreadyEnrolled, currentPassword, onStartRefused }: TotpEnrollmentProps) {
  const [enrollment, setEnrollment] = useState<{ secret: string; otpauth_uri: string } | undefined>();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [busy, setBusy] = useState(false);
  const credential = mfaToken ? { mfa_token: mfaToken } : {};

  useEffect(() => {
    const proof = !mfaToken && currentPassword !== undefined ? { current_password: currentPassword } : {};
    void send(() => api.POST('/v1/mfa/enroll/start', { body: { ...credential, ...proof } })).then((outcome) => {
      if (outcome.ok) return setEnrollment(outcome.data);
      if (outcome.problem.status === 409 && onAlreadyEnrolled) return onAlreadyEnrolled();
      if (onStartRefused) return onStartRefused(outcome.problem);
      setProblem(outcome.problem);
    });
  }, []);

  async function confirm(event: Event) {
    event.preventDefault();
    setBusy(true);
    const outcome = await send(() => api.POST('/v1/mfa/enroll/confirm', { body: { ...credential, code: code.trim() } }));
    setBusy(false);
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    onConfirmed(outcome.data);
  }

  // A wrong or reused code is `invalid_credentials` without a path: it belongs beside the code field.
  const wrongCode = problem?.code === 'invalid_credentials' ? problem.detail : undefined;
  return (
    <>
      <FormMessage message={wrongCode ? undefined : formMessage(problem, ['code'])} />
      {enrollment && (
        <>
          <QrCode value={enrollment.otpauth_uri} label={`QR code for the authenticator app of ${email}`} />
          <p>Secret: <code id="mfa-secret">{enrollment.secret}</code> <CopyButton value={enrollment.secret} label="Copy the secret" /></p>
          <form onSubmit={(e) => void confirm(e)}>
            <Field id="code" label="6-digit code" autocomplete="one-time-code" inputMode="numeric" pattern="[0-9]{6}" required value={code} error={wrongCode ?? fieldErrors(problem).code} onInput={(e) => setCode(e.currentTarget.value)} />
            <button type="submit" disabled={busy}>Confirm</button>
          </form>
        </>
      )}
    </>
  );
}
