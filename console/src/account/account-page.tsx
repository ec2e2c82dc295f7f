/** The signed-in user's own account: password, MFA backup codes (when enrolled), linked SSO identities. */
import { useCurrentUser } from '../session/current-user';
import { BackupCodesPanel } from './backup-codes-panel';
import { FederatedIdentitiesPanel } from './federated-identities-panel';
import { PasswordChangeForm } from './password-change-form';

export function AccountPage() {
  const { me } = useCurrentUser();
  return (
    <main>
      <h1>Your account</h1>
      <p>Signed in as {me.email}.</p>
      <PasswordChangeForm />
      {me.mfa_enrolled && <BackupCodesPanel />}
      <FederatedIdentitiesPanel />
    </main>
  );
}
