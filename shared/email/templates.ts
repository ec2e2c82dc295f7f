/** The emails Tessera sends, as plain text a person can read in any client. */
import type { EmailMessage } from './email-sender';

export function passwordResetEmail(input: { to: string; resetLink: string; expiresInMinutes: number }): EmailMessage {
  return {
    to: input.to,
    subject: 'Reset your Tessera password',
    text: [
      'Hello,',
      '',
      'Someone asked to reset the password of your Tessera account. If it was you, open this',
      `link within ${input.expiresInMinutes} minutes and choose a new password:`,
      '',
      input.resetLink,
      '',
      'The link works once. Using it signs you out everywhere else.',
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
      '',
      '-- Tessera',
      '',
    ].join('\n'),
  };
}

/** To the address an account had before its email changed: the owner learns of a swap. */
export function emailChangedEmail(input: { to: string; newEmailMasked: string }): EmailMessage {
  return {
    to: input.to,
    subject: 'The email address of your Tessera account was changed',
    text: [
      'Hello,',
      '',
      `The email address of your Tessera account is no longer this one: it is now ${input.newEmailMasked}.`,
      'Sessions of the account were signed out, and password reset links sent to this address',
      'no longer work.',
      '',
      'If you did not expect this, tell your Tessera administrator at once.',
      '',
      '-- Tessera',
      '',
    ].join('\n'),
  };
}
