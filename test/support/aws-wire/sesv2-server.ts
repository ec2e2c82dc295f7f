/**
 * A local Amazon SES (API v2) over its wire protocol (REST-JSON: `POST
 * /v2/email/outbound-emails` with a JSON body, SigV4 with service `ses`; an error is its HTTP
 * status with the name in `x-amzn-ErrorType` and `{"message": …}` as the body).
 *
 * What it reproduces of the SES v2 API reference and the SES developer guide ("Amazon SES email
 * sending errors"):
 * - SendEmail with simple content answers `{MessageId}` and the message is recorded.
 * - A sender (the address in `FromEmailAddress`, display name or not) whose address or domain
 *   is not a verified identity is 400 `MessageRejected`, "Email address is not verified. The
 *   following identities failed the check in region <REGION>: <address>", and nothing is sent.
 * - 403 `AccessDeniedException` when the caller's policy does not allow `ses:SendEmail` on the
 *   sender's identity ARN (`arn:aws:ses:<region>:<account>:identity/<address or domain>`).
 */
import { randomBytes } from 'node:crypto';
import { startLocalServer, type LocalReply } from '../../../infra/local/stand-ins/local-server';
import { authenticationFailure, CALLER_ARN, TEST_ACCOUNT, TEST_REGION } from './caller';
import { ALLOW_ALL, isAllowed, notAuthorizedMessage, type IamStatement } from './iam-policy';

export interface SentEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  configurationSet: string | undefined;
}

export interface Sesv2Server {
  /** For `AWS_ENDPOINT_URL_SESV2` (the SDK's service id is "SESv2"). */
  endpoint: string;
  /** What SES accepted, in order. */
  sent: SentEmail[];
  /** Email addresses and domains verified as identities. */
  verifiedIdentities: Set<string>;
  policy: IamStatement[];
  close(): Promise<void>;
}

const restJsonError = (status: number, type: string, message: string): LocalReply => ({
  status,
  headers: { 'content-type': 'application/json', 'x-amzn-errortype': type, 'x-amzn-requestid': randomBytes(16).toString('hex') },
  body: JSON.stringify({ message }),
});

/** `Name <a@b>` or `a@b` → `a@b`. */
const addressOf = (from: string) => /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

interface SendEmailBody {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[] };
  Content?: { Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string } } } };
  ConfigurationSetName?: string;
}

export async function startSesv2Server(region = TEST_REGION): Promise<Sesv2Server> {
  const server: Sesv2Server = { endpoint: '', sent: [], verifiedIdentities: new Set(), policy: ALLOW_ALL, close: () => Promise.resolve() };
  const local = await startLocalServer((request) => {
    const refused = authenticationFailure(request, 'ses', region);
    if (refused) return restJsonError(403, refused.type, refused.message);
    if (request.method !== 'POST' || request.url.pathname !== '/v2/email/outbound-emails') return restJsonError(404, 'NotFoundException', `No route for ${request.method} ${request.url.pathname}`);
    const body = JSON.parse(request.body) as SendEmailBody;
    const from = body.FromEmailAddress ?? '';
    const address = addressOf(from);
    const domain = address.split('@')[1] ?? '';
    const identity = server.verifiedIdentities.has(address) ? address : domain;
    const identityArn = `arn:aws:ses:${region}:${TEST_ACCOUNT}:identity/${identity}`;
    if (!isAllowed(server.policy, 'ses:SendEmail', identityArn)) return restJsonError(403, 'AccessDeniedException', notAuthorizedMessage(CALLER_ARN, 'ses:SendEmail', identityArn));
    if (!server.verifiedIdentities.has(address) && !server.verifiedIdentities.has(domain)) {
      return restJsonError(400, 'MessageRejected', `Email address is not verified. The following identities failed the check in region ${region.toUpperCase()}: ${address}`);
    }
    const simple = body.Content?.Simple;
    server.sent.push({
      from,
      to: body.Destination?.ToAddresses ?? [],
      subject: simple?.Subject?.Data ?? '',
      text: simple?.Body?.Text?.Data ?? '',
      configurationSet: body.ConfigurationSetName,
    });
    const messageId = `0102${randomBytes(16).toString('hex')}-000000`;
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ MessageId: messageId }) };
  });
  server.endpoint = local.url;
  server.close = () => local.close();
  return server;
}
