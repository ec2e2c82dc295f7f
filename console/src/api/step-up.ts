/**
 * Step-up MFA: an action the tenant's policy lists answers 401 `mfa_required` when the last MFA
 * is older than ten minutes. The console then asks for a code (the dialog registers itself
 * here), exchanges it at `POST /v1/mfa/challenge` for a fresher access token and retries. No
 * answer (undefined) ends the action as refused: Cancel, or a user with no authenticator whom
 * the dialog sent elsewhere for a fresh MFA.
 */
type CodeRequester = () => Promise<{ code: string } | { backup_code: string } | undefined>;

let requester: CodeRequester | undefined;

export function registerStepUpPrompt(ask: CodeRequester): () => void {
  requester = ask;
  return () => {
    if (requester === ask) requester = undefined;
  };
}

export function askForStepUpCode(): ReturnType<CodeRequester> {
  return requester ? requester() : Promise.resolve(undefined);
}
