/**
 * New MFA backup codes (the old ones stop working), shown once. The API wants a recent MFA:
 * `send` asks for a code when the session's is too old.
 */
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { type Problem } from '../api/problem';
import { send } from '../api/send';
import { BackupCodes } from '../components/backup-codes';
import { useConfirm } from '../components/confirm-dialog';
import { FormMessage } from '../components/form-message';

export function BackupCodesPanel() {
  const [codes, setCodes] = useState<string[] | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [confirmDialog, confirm] = useConfirm('confirm-new-backup-codes');

  async function regenerate() {
    if (!(await confirm({
      title: 'Make new backup codes?',
      body: <p>Your current backup codes stop working at once; the new ones are shown only once.</p>,
      confirmLabel: 'Make new backup codes',
    }))) return;
    const outcome = await send(() => api.POST('/v1/mfa/backup-codes/regen'));
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setCodes(outcome.data.backup_codes);
  }

  return (
    <section aria-labelledby="backup-codes-heading">
      <h2 id="backup-codes-heading">MFA backup codes</h2>
      <FormMessage message={problem?.detail} />
      {codes ? (
        <>
          <p>Your new backup codes, shown only now: copy or download them. The previous ones no longer work.</p>
          <BackupCodes codes={codes} />
        </>
      ) : (
        <>
          <p>Each backup code signs you in once when your authenticator is not at hand.</p>
          <button type="button" onClick={() => void regenerate()}>Make new backup codes</button>
        </>
      )}
      {confirmDialog}
    </section>
  );
}
