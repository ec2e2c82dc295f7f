/**
 * The AWS connector's test for the answers the local STS + IAM never gives: an AssumeRole
 * without credentials, STS off in the region, a caller that cannot be named, a principal IAM
 * cannot evaluate, a simulation that fails otherwise, and simulation results with parts
 * missing. The SDK clients' `send` answers from a script; the rest runs as in production.
 */
import { IAMClient, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AwsConfiguration } from '../../shared/connectors/aws/integration';
import { awsConnector } from '../../shared/connectors/aws/connector';
import type { ConnectorTestResult } from '../../shared/connectors/connector';

const account = '123456789012';
const userArn = `arn:aws:iam::${account}:user/discovery`;
const roleArn = `arn:aws:iam::${account}:role/TesseraDiscovery`;
const userKeys: AwsConfiguration = { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'eu-west-1' };
const viaRole: AwsConfiguration = { ...userKeys, role_arn: roleArn };

const awsError = (name: string, status: number) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
type Answer = Record<string, unknown> | Error;

/** Scripts the answers of STS and IAM by command; records the commands sent. */
function script(answers: { assumeRole?: Answer[]; callerIdentity?: Answer[]; simulate?: Answer[] }) {
  const sent: string[] = [];
  const next = (list: Answer[] | undefined, name: string) => {
    const answer = list?.shift();
    if (answer === undefined) throw new Error(`unscripted ${name}`);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  const answer = (command: unknown) => {
    const name = (command as { constructor: { name: string } }).constructor.name;
    sent.push(name);
    if (command instanceof AssumeRoleCommand) return next(answers.assumeRole, name);
    if (command instanceof GetCallerIdentityCommand) return next(answers.callerIdentity, name);
    if (command instanceof SimulatePrincipalPolicyCommand) return next(answers.simulate, name);
    throw new Error(`unexpected ${name}`);
  };
  vi.spyOn(STSClient.prototype, 'send').mockImplementation(answer as never);
  vi.spyOn(IAMClient.prototype, 'send').mockImplementation(answer as never);
  return sent;
}

const runTest = (configuration: AwsConfiguration): Promise<ConnectorTestResult> =>
  awsConnector.test({ configuration, scope: { account_ids: [account] } }, { signal: AbortSignal.timeout(5_000) });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the AWS connector test, assuming a role', () => {
  it('an AssumeRole answer without credentials is an STS failure, not a success', async () => {
    script({ assumeRole: [{ Credentials: { AccessKeyId: 'ASIAEXAMPLE' } }] });
    const result = await runTest(viaRole);
    expect(result.status).toBe('failure');
    expect(result.remediation).toHaveLength(1);
    expect(result.remediation[0]!.message).toContain('AssumeRoleWithoutCredentials');
  });

  it('STS off in the region says to activate it there', async () => {
    script({ assumeRole: [awsError('RegionDisabledException', 403)] });
    expect(await runTest(viaRole)).toEqual({ status: 'failure', remediation: [expect.objectContaining({ category: 'configuration', message: 'AWS STS is not activated in region eu-west-1.' })] });
  });

  it('a refused AssumeRole names a placeholder principal when the caller cannot be named either', async () => {
    const sent = script({ assumeRole: [awsError('AccessDenied', 403)], callerIdentity: [awsError('Throttling', 400)] });
    const result = await runTest(viaRole);
    expect(sent).toEqual(['AssumeRoleCommand', 'GetCallerIdentityCommand']);
    expect(result.remediation).toEqual([expect.objectContaining({ message: `AWS refused sts:AssumeRole on ${roleArn} for the IAM user of access_key_id.` })]);
  });

  it('another AssumeRole failure is reported as what it is', async () => {
    script({ assumeRole: [awsError('Throttling', 400)] });
    const result = await runTest(viaRole);
    expect(result.status).toBe('failure');
    expect(result.remediation[0]!.message).toContain('AWS STS');
  });
});

describe('the AWS connector test, simulating the permissions', () => {
  it('a caller identity without an ARN cannot be evaluated', async () => {
    script({ callerIdentity: [{}] });
    expect(await runTest(userKeys)).toEqual({ status: 'failure', remediation: [expect.objectContaining({ category: 'configuration', message: 'IAM cannot evaluate the permissions of .' })] });
  });

  it('IAM not knowing the principal, or refusing it as input, is a principal it cannot evaluate', async () => {
    for (const code of ['NoSuchEntity', 'InvalidInput']) {
      script({ callerIdentity: [{ Arn: userArn }], simulate: [awsError(code, code === 'NoSuchEntity' ? 404 : 400)] });
      expect(await runTest(userKeys)).toEqual({ status: 'failure', remediation: [expect.objectContaining({ message: `IAM cannot evaluate the permissions of ${userArn} (${code}).` })] });
      vi.restoreAllMocks();
    }
  });

  it('another simulation failure is reported as an IAM failure', async () => {
    script({ callerIdentity: [{ Arn: userArn }], simulate: [awsError('ServiceFailure', 500)] });
    const result = await runTest(userKeys);
    expect(result.status).toBe('failure');
    expect(result.remediation[0]!.message).toContain('AWS IAM');
    expect(result.remediation[0]!.message).toContain('ServiceFailure, HTTP 500');
  });

  it('reads results with parts missing: no action name is skipped, an unknown action and an unnamed deny still get their item', async () => {
    script({
      callerIdentity: [{ Arn: userArn }],
      simulate: [
        { EvaluationResults: [{ EvalDecision: 'implicitDeny' }, { EvalActionName: 'iam:NewAction', EvalDecision: 'implicitDeny' }], IsTruncated: true, Marker: 'm1' },
        { IsTruncated: false },
        // Not asked for: the marker ended the pages.
      ],
    });
    const result = await runTest(userKeys);
    expect(result.remediation.map((r) => r.message)).toEqual([`iam:NewAction is not allowed for ${userArn}.`]);
    expect(result.remediation[0]!.action).toContain('Without it discovery would miss part of what discovery reads.');

    script({ callerIdentity: [{ Arn: userArn }], simulate: [{ EvaluationResults: [{ EvalActionName: 'iam:ListUsers', EvalDecision: 'explicitDeny' }], IsTruncated: true }] });
    const denied = await runTest(userKeys);
    expect(denied.remediation.map((r) => r.message)).toEqual([`iam:ListUsers is explicitly denied for ${userArn} by a policy of the principal.`]);
  });

  it('stops following simulation pages after ten', async () => {
    const sent = script({ callerIdentity: [{ Arn: userArn }], simulate: Array.from({ length: 11 }, (_, i) => ({ EvaluationResults: [], IsTruncated: true, Marker: `m${i}` })) });
    expect(await runTest(userKeys)).toEqual({ status: 'success', remediation: [] });
    expect(sent.filter((name) => name === 'SimulatePrincipalPolicyCommand')).toHaveLength(10);
  });
});
