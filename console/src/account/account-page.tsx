/**
 * The signed-in user's own account: password, MFA (set up an authenticator when there is none,
 * else new backup codes), linked SSO identities.
 */
import { useState } from 'preact/hooks';
import { useCurrentUser } from '../session/current-user';
import { AuthenticatorSetupPanel } from './authenticator-setup-panel';
import { BackupCodesPanel } from './backup-codes-panel';
import { FederatedIdentitiesPanel } from './federated-identities-panel';
import { PasswordChangeForm } from './password-change-form';

export function AccountPage() {
  const { me } = useCurrentUser();
  // The setup panel outlives its confirmation (which reloads /v1/me) to show the backup codes once.
  const [enrolledHere, setEnrolledHere] = useState(false);
  return (
    <main>
      <h1>Your account</h1>
      <p>Signed in as {me.email}.</p>
      <PasswordChangeForm />
      {(!me.mfa_enrolled || enrolledHere) && <AuthenticatorSetupPanel onEnrolled={() => setEnrolledHere(true)} />}
      {me.mfa_enrolled && <BackupCodesPanel />}
      <FederatedIdentitiesPanel />
    </main>
  );
}
