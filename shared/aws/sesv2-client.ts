/**
 * Amazon SES (API v2) `SendEmail`, over its REST-JSON protocol as the SDK sends it: `POST
 * /v2/email/outbound-emails` with the input as a JSON body, to `email.<region>.amazonaws.com`,
 * SigV4 with the signing name `ses` (not the service id `sesv2`). An error is the HTTP status
 * with the exception's name in the `x-amzn-ErrorType` header, else in the body's `code` or
 * `__type` (the SDK's order), and `message` in the body: an `AwsServiceError` named so
 * (`MessageRejected`, `AccessDeniedException`…).
 */
import { AwsServiceError } from './aws-json-client';
import { createAwsRequester, hostHeader, type AwsAnswer, type AwsServiceOptions } from './signed-request';

interface Sesv2Content {
  Data: string;
  Charset?: string;
}

/** SendEmail's input members Tessera sends (simple content). */
export interface Sesv2SendEmailInput {
  FromEmailAddress: string;
  Destination: { ToAddresses: string[] };
  Content: { Simple: { Subject: Sesv2Content; Body: { Text?: Sesv2Content; Html?: Sesv2Content } } };
  ConfigurationSetName?: string;
}

export interface Sesv2Client {
  /** The message's id as SES gives it. */
  sendEmail(input: Sesv2SendEmailInput): Promise<{ MessageId?: string }>;
}

const parseJson = (body: Buffer): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The SDK's `sanitizeErrorCode`: `Name:http://…` and `namespace#Name` are `Name`. */
const sanitize = (raw: string) => raw.split(',')[0]!.split(':')[0]!.split('#').pop()!;

const errorNameOf = (answer: AwsAnswer): string | undefined => {
  if (answer.status < 300) return undefined;
  const header = answer.headers['x-amzn-errortype'];
  if (typeof header === 'string') return sanitize(header);
  const body = parseJson(answer.body);
  const code = body.code ?? body.Code ?? body.__type;
  return typeof code === 'string' ? sanitize(code) : undefined;
};

export function createSesv2Client(options: AwsServiceOptions): Sesv2Client {
  const requester = createAwsRequester('ses', options);
  const endpoint = requester.endpoint;
  const where = endpoint
    ? { protocol: endpoint.protocol, hostname: endpoint.hostname, port: endpoint.port ? Number(endpoint.port) : undefined, base: endpoint.pathname.replace(/\/$/, '') }
    : { protocol: 'https:', hostname: `email.${options.region}.amazonaws.com`, port: undefined, base: '' };

  return {
    async sendEmail(input) {
      const body = Buffer.from(JSON.stringify(input), 'utf8');
      const answer = await requester.send(
        {
          method: 'POST',
          protocol: where.protocol,
          hostname: where.hostname,
          port: where.port,
          path: `${where.base}/v2/email/outbound-emails`,
          headers: { host: hostHeader(where.hostname, where.port), 'content-type': 'application/json' },
          body,
        },
        errorNameOf,
        { service: 'SESv2', operation: 'SendEmail' },
      );
      const parsed = parseJson(answer.body);
      if (answer.status >= 300) {
        const message = [parsed.message, parsed.Message].find((m): m is string => typeof m === 'string') ?? `SES answered ${answer.status}`;
        throw new AwsServiceError(errorNameOf(answer) ?? `Http${answer.status}`, message, answer.status);
      }
      return typeof parsed.MessageId === 'string' ? { MessageId: parsed.MessageId } : {};
    },
  };
}
