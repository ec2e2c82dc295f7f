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
