/**
 * The email transport of the stage (SES in AWS, `.eml` files locally), made on first use for a
 * given `Deps` and kept with it.
 *
 * It is not a field of `Deps` on purpose: `deps.ts` is in every function. Importing this module
 * is what puts the SES sender in a bundle, so only the functions that send email carry it, and
 * infra/handler-capabilities.ts grants `ses:SendEmail` to exactly those (test/infra checks the
 * two agree).
 */
import { createSesv2Client } from '../aws/sesv2-client';
import type { Deps } from '../deps';
import type { EmailSender } from './email-sender';
import { createOutboxEmailSender } from './outbox-email-sender';
import { createSesEmailSender } from './ses-email-sender';

const senders = new WeakMap<Deps, EmailSender>();

function createEmailSender(deps: Deps): EmailSender {
  const { config } = deps;
  if (config.email.transport === 'ses') {
    return createSesEmailSender({ from: config.email.from, client: createSesv2Client({ region: config.region, endpoint: config.awsEndpoints.sesv2 }), configurationSet: config.email.sesConfigurationSet });
  }
  return createOutboxEmailSender({ dir: config.outboxDir, from: config.email.from, clock: deps.clock, ids: deps.ids });
}

export function emailSenderFor(deps: Deps): EmailSender {
  let sender = senders.get(deps);
  if (!sender) {
    sender = createEmailSender(deps);
    senders.set(deps, sender);
  }
  return sender;
}
