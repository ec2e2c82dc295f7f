/**
 * What the application hands to email transport: one plain-text message to one recipient.
 * Implementations: `ses-email-sender.ts` (AWS) and `outbox-email-sender.ts` (local files).
 */
export interface EmailMessage {
  to: string;
  subject: string;
  /** The text part; lines end with `\n` and are short enough for any transport. */
  text: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}
