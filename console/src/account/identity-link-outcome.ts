/**
 * How the last identity link ended, handed from the SSO return page to the account page. Memory
 * only: the return page navigates within the app, and the message is shown once.
 */
export type IdentityLinkOutcome = { linked: true } | { linked: false; message: string };

let outcome: IdentityLinkOutcome | undefined;

export const identityLinkOutcome = {
  set: (value: IdentityLinkOutcome): void => {
    outcome = value;
  },
  /** The outcome, once: a later visit of the account page shows none. */
  take: (): IdentityLinkOutcome | undefined => {
    const taken = outcome;
    outcome = undefined;
    return taken;
  },
};
