/**
 * A login waiting for its MFA step: the `mfa_token` the password answered, between the sign-in
 * page and the enrollment or challenge page. Memory only: it is short-lived and a reload
 * simply starts the sign-in again.
 */
export interface PendingLogin {
  mfaToken: string;
  email: string;
}

let pending: PendingLogin | undefined;

export const pendingLogin = {
  get: (): PendingLogin | undefined => pending,
  set: (value: PendingLogin | undefined): void => {
    pending = value;
  },
};
