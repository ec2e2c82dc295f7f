/**
 * How the AWS connector tells failures apart (timeouts, sockets, throttling, credentials,
 * access, the rest) and the remediation each one gets: exact statements, the principal named,
 * never a secret of the configuration.
 */
import { describe, expect, it } from 'vitest';
import { classifyAwsError } from '../../shared/connectors/aws/errors';
import { awsFailureItem, cannotAssumeRole, explicitlyDenied, rejectedCredentials, unevaluablePrincipal } from '../../shared/connectors/aws/remediation';

const live = new AbortController().signal;
const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error('message'), { name }, extra);

describe('classifyAwsError', () => {
  it('an aborted signal, an AbortError or a TimeoutError is a timeout', () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(classifyAwsError(named('Whatever'), aborted.signal)).toEqual({ kind: 'timeout' });
    expect(classifyAwsError(named('AbortError'), live)).toEqual({ kind: 'timeout' });
    expect(classifyAwsError(named('TimeoutError'), live)).toEqual({ kind: 'timeout' });
  });

  it("a socket error (Node's code, no HTTP status) is unreachable; a code of another shape is not", () => {
    expect(classifyAwsError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), live)).toEqual({ kind: 'unreachable', reason: 'ECONNREFUSED' });
    expect(classifyAwsError({ code: 'not-a-system-code' }, live)).toEqual({ kind: 'service', code: 'UnknownError', status: undefined });
    expect(classifyAwsError({ code: 42 }, live)).toEqual({ kind: 'service', code: 'UnknownError', status: undefined });
    expect(classifyAwsError(null, live)).toEqual({ kind: 'service', code: 'UnknownError', status: undefined });
  });

  it('throttling by name or by HTTP 429; credentials and access by name; the rest is a service error with its status', () => {
    expect(classifyAwsError(named('SlowDown', { $metadata: { httpStatusCode: 503 } }), live)).toEqual({ kind: 'throttled' });
    expect(classifyAwsError(named('Odd', { $metadata: { httpStatusCode: 429 } }), live)).toEqual({ kind: 'throttled' });
    expect(classifyAwsError(named('ExpiredToken', { $metadata: { httpStatusCode: 403 } }), live)).toEqual({ kind: 'rejected-credentials', code: 'ExpiredToken' });
    expect(classifyAwsError(named('AccessDeniedException', { $metadata: { httpStatusCode: 403 } }), live)).toEqual({ kind: 'access-denied', code: 'AccessDeniedException' });
    expect(classifyAwsError(named('NoSuchEntity', { $metadata: { httpStatusCode: 404 } }), live)).toEqual({ kind: 'service', code: 'NoSuchEntity', status: 404 });
    // Metadata without a numeric status is no status; a status hides a socket-looking code.
    expect(classifyAwsError(named('Odd', { $metadata: { httpStatusCode: '500' } }), live)).toEqual({ kind: 'service', code: 'Odd', status: undefined });
    expect(classifyAwsError(named('Odd', { $metadata: null }), live)).toEqual({ kind: 'service', code: 'Odd', status: undefined });
    expect(classifyAwsError(named('Odd', { $metadata: { httpStatusCode: 500 }, code: 'ECONNRESET' }), live)).toEqual({ kind: 'service', code: 'Odd', status: 500 });
  });
});

describe('AWS remediation', () => {
  it('each failure kind becomes its item', () => {
    expect(awsFailureItem('AWS STS', { kind: 'timeout' }, 10_000).category).toBe('connectivity');
    expect(awsFailureItem('AWS STS', { kind: 'unreachable', reason: 'ENOTFOUND' }, 5).message).toContain('ENOTFOUND');
    expect(awsFailureItem('AWS IAM', { kind: 'throttled' }, 5).message).toContain('AWS IAM');
    expect(awsFailureItem('AWS STS', { kind: 'rejected-credentials', code: 'InvalidClientTokenId' }, 5)).toMatchObject({ category: 'credentials', message: 'AWS rejected the access key (InvalidClientTokenId).' });
    expect(awsFailureItem('AWS IAM', { kind: 'access-denied', code: 'AccessDenied' }, 5).message).toContain('AccessDenied');
    expect(awsFailureItem('AWS IAM', { kind: 'service', code: 'Boom', status: 500 }, 5).message).toContain('Boom, HTTP 500');
    expect(awsFailureItem('AWS IAM', { kind: 'service', code: 'Boom', status: undefined }, 5).message).not.toContain('HTTP');
  });

  it('a wrong secret is told apart from a wrong key id', () => {
    expect(rejectedCredentials('SignatureDoesNotMatch').message).toContain('secret access key does not belong to the access key id');
    expect(rejectedCredentials('InvalidAccessKeyId').action).toContain('Check access_key_id');
  });

  it('names the denying policies when known, the principal otherwise; the trust statement with or without an external id', () => {
    const permission = { action: 'iam:GetAccountAuthorizationDetails', misses: 'every IAM user' };
    expect(explicitlyDenied(permission, 'arn:aws:iam::1:user/d', ['arn:aws:iam::1:policy/deny']).message).toContain('by arn:aws:iam::1:policy/deny');
    expect(explicitlyDenied(permission, 'arn:aws:iam::1:user/d', []).message).toContain('by a policy of the principal');
    const withId = cannotAssumeRole('arn:aws:iam::2:role/r', 'arn:aws:iam::1:user/d', true);
    expect(withId.action).toContain('"sts:ExternalId"');
    expect(withId.action).toContain('"AWS":"arn:aws:iam::1:user/d"');
    const unknownCaller = cannotAssumeRole('arn:aws:iam::2:role/r', undefined, false);
    expect(unknownCaller.message).toContain('for the IAM user of access_key_id');
    expect(unknownCaller.action).not.toContain('sts:ExternalId');
    expect(unevaluablePrincipal('arn:aws:iam::1:role/r', 'NoSuchEntity').message).toContain('(NoSuchEntity)');
    expect(unevaluablePrincipal('arn:aws:iam::1:role/r').message).not.toContain('(');
  });
});
