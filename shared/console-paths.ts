/**
 * The web console's pages that something outside the console points at: the reset email's
 * link, and the SSO return address admins put on their IdP's redirect URI list (the demo does
 * so for its IdP). The console routes on the same constants, so a page cannot move without
 * the links that lead to it. Plain strings only: the console's bundle imports this file.
 */
export const RESET_PASSWORD_PATH = '/reset-password';
export const SSO_CALLBACK_PATH = '/sign-in/sso';
