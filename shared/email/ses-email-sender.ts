/**
 * AWS: emails go out through SES (v2 `SendEmail`, simple content). The stack grants
 * `ses:SendEmail` on the sender's identity only. SES builds the MIME message itself.
 */
import type { Sesv2Client } from '../aws/sesv2-client';
import type { EmailMessage, EmailSender } from './email-sender';

export interface SesOptions {
  from: string;
  client: Sesv2Client;
  /** Optional SES configuration set (delivery events, suppression). */
  configurationSet?: string | undefined;
}

export function createSesEmailSender(options: SesOptions): EmailSender {
  return {
    async send(message: EmailMessage): Promise<void> {
      await options.client.sendEmail({
        FromEmailAddress: options.from,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
        ...(options.configurationSet ? { ConfigurationSetName: options.configurationSet } : {}),
      });
    },
  };
}
