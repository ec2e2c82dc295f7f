/**
 * Who calls the local AWS servers: one account, one role session (a Lambda function's role as
 * the runtime gives it), its static keys, and how each server authenticates a request the way
 * AWS does (SigV4 Signature Version 4 signing process, "Credential scope"): an unsigned request,
 * an unknown access key, a credential scoped to another service or region, or a signature that
 * does not verify with the key's secret is refused before anything else is looked at.
 */
import type { LocalRequest } from '../../../infra/local/stand-ins/local-server';
import { parsePresignedSigV4, parseSigV4 } from '../../../infra/local/stand-ins/sigv4';

export const TEST_ACCOUNT = '111122223333';
export const TEST_REGION = 'eu-west-1';

/** The static keys the SDK clients find in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. */
export const TEST_CREDENTIALS = { accessKeyId: 'AKIATESSERAWIRETEST1', secretAccessKey: 'tessera-wire-test-secret-0123456789abcdef' } as const;

export const CALLER_ARN = `arn:aws:sts::${TEST_ACCOUNT}:assumed-role/tessera-test-function/tessera-test-session`;

export interface AuthenticationFailure {
  type: 'MissingAuthenticationTokenException' | 'UnrecognizedClientException' | 'InvalidSignatureException';
  message: string;
}

/** Undefined when the request is signed (in its Authorization header, or presigned in its query) by the test caller for `service` in `region`. */
export function authenticationFailure(request: LocalRequest, service: string, region: string): AuthenticationFailure | undefined {
  // A presigned URL (S3) carries its signature in the query instead.
  const presigned = parseSigV4(request) ? undefined : parsePresignedSigV4(request);
  const signed = parseSigV4(request) ?? presigned;
  if (!signed) return { type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  if (presigned?.expiredAt(new Date())) return { type: 'MissingAuthenticationTokenException', message: 'Request has expired' };
  if (signed.accessKeyId !== TEST_CREDENTIALS.accessKeyId) return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (signed.service !== service) return { type: 'InvalidSignatureException', message: `Credential should be scoped to correct service: '${service}'. ` };
  if (signed.region !== region) return { type: 'InvalidSignatureException', message: `Credential should be scoped to a valid region. ` };
  if (!signed.verify(TEST_CREDENTIALS.secretAccessKey)) {
    return { type: 'InvalidSignatureException', message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.' };
  }
  return undefined;
}
