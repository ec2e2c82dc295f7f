/**
 * The AWS connector (cloud provider A) against a local STS + IAM that verifies SigV4 like AWS:
 * success for IAM user keys and for an assumed role, the exact remediation for each way a
 * permission can be missing, bad credentials, throttling, timeout and an unreachable endpoint.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findIntegration } from '../../shared/connectors/catalog';
import type { AwsConfiguration } from '../../shared/connectors/aws/integration';
import type { ConnectorTestResult } from '../../shared/connectors/connector';
import { AWS_ACCOUNT, awsRole, awsUser, startFakeAws, type FakeAws, type FakeAwsCall } from '../../infra/local/stand-ins/aws';
import { connectorOf } from '../../shared/connectors/connector-registry';

const integration = findIntegration('int_aws_iam_discovery')!;
const userKeys: AwsConfiguration = { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1' };
const viaRole: AwsConfiguration = { ...userKeys, role_arn: awsRole.arn, external_id: awsRole.externalId };
const scope = { account_ids: [AWS_ACCOUNT] };

let aws: FakeAws;
beforeAll(async () => {
  aws = await startFakeAws();
});
afterAll(() => aws.close());
beforeEach(() => {
  aws.calls.length = 0;
  aws.state.users = [awsUser];
  aws.state.denied = {};
  aws.state.throttle = undefined;
  aws.state.hang = undefined;
  aws.state.simulationPageSize = 100;
});

/** Runs the test as the connection use case does; no answer may ever carry a secret. */
async function runTest(configuration: AwsConfiguration, timeoutMs = 5_000, endpoint = aws.url): Promise<ConnectorTestResult> {
  expect(integration.configurationSchema.safeParse(configuration).success).toBe(true);
  const result = await connectorOf(integration).test(
    { configuration, scope },
    { signal: AbortSignal.timeout(timeoutMs), endpoints: { sts: endpoint, iam: endpoint } },
  );
  const text = JSON.stringify(result);
  for (const secret of [configuration.secret_access_key, configuration.access_key_id, configuration.external_id]) {
    if (secret) expect(text).not.toContain(secret);
  }
  return result;
}

describe('cloud provider A (AWS) connector test', () => {
  it('succeeds for IAM user keys after simulating every required permission on the user', async () => {
    expect(await runTest(userKeys)).toEqual({ status: 'success', remediation: [] });

    expect(aws.calls.map((c) => c.action)).toEqual(['GetCallerIdentity', 'SimulatePrincipalPolicy']);
    const simulation = aws.calls[1]!;
    expect(simulation.service).toBe('iam');
    expect(simulation.params.get('PolicySourceArn')).toBe(awsUser.arn);
    const actionNames = [...simulation.params.entries()].filter(([k]) => k.startsWith('ActionNames.member.')).map(([, v]) => v);
    // SimulatePrincipalPolicy itself is proven by the call succeeding.
    expect(actionNames).toEqual(integration.required_permissions.filter((p) => p !== 'iam:SimulatePrincipalPolicy'));
  });

  it('assumes the role with the external id and simulates on the ROLE ARN (path included), not the session ARN', async () => {
    expect(await runTest(viaRole)).toEqual({ status: 'success', remediation: [] });

    expect(aws.calls.map((c) => c.action)).toEqual(['AssumeRole', 'GetCallerIdentity', 'SimulatePrincipalPolicy']);
    const [assume, identity, simulation] = aws.calls as [FakeAwsCall, FakeAwsCall, FakeAwsCall];
    expect(assume.accessKeyId).toBe(awsUser.accessKeyId);
    expect(assume.params.get('RoleArn')).toBe(awsRole.arn);
    expect(assume.params.get('ExternalId')).toBe(awsRole.externalId);
    expect(assume.params.get('RoleSessionName')).toBe('tessera-connection-test');
    // Later calls use the session's temporary credentials.
    expect(identity.accessKeyId).toMatch(/^ASIA/);
    expect(simulation.accessKeyId).toBe(identity.accessKeyId);
    expect(simulation.params.get('PolicySourceArn')).toBe('arn:aws:iam::123456789012:role/discovery/TesseraDiscovery');
  });

  it('names the exact statement to attach to the role for an implicitly denied action', async () => {
    aws.state.denied[awsRole.arn] = { 'iam:ListAccountAliases': 'implicitDeny' };
    expect(await runTest(viaRole)).toEqual({
      status: 'failure',
      remediation: [
        {
          category: 'permissions',
          message: 'iam:ListAccountAliases is not allowed for arn:aws:iam::123456789012:role/discovery/TesseraDiscovery.',
          action:
            'Attach to arn:aws:iam::123456789012:role/discovery/TesseraDiscovery (inline or through a managed policy) this IAM policy statement: ' +
            '{"Effect":"Allow","Action":"iam:ListAccountAliases","Resource":"*"}. Without it discovery would miss the account alias, so the CloudAccountBoundary is named by its id only.',
        },
      ],
    });
  });

  it('tells an explicit deny, a service control policy and a permissions boundary apart', async () => {
    aws.state.denied[awsUser.arn] = {
      'iam:GetAccountAuthorizationDetails': { explicitDenyBy: 'DenyIamReads' },
      'iam:ListAccountAliases': 'scp',
    };
    const result = await runTest(userKeys);
    expect(result.status).toBe('failure');
    expect(result.remediation).toEqual([
      {
        category: 'permissions',
        message: `iam:GetAccountAuthorizationDetails is explicitly denied for ${awsUser.arn} by DenyIamReads.`,
        action:
          `Remove iam:GetAccountAuthorizationDetails from the Deny statement in DenyIamReads (an Allow never overrides an explicit Deny), then make sure ${awsUser.arn} has ` +
          '{"Effect":"Allow","Action":"iam:GetAccountAuthorizationDetails","Resource":"*"}. Without it discovery would miss IAM users, groups, roles and their policies (every Principal, Entitlement and assignment).',
      },
      {
        category: 'permissions',
        message: `iam:ListAccountAliases is blocked for ${awsUser.arn} by a service control policy of AWS Organizations.`,
        action:
          "Allow iam:ListAccountAliases in the service control policies that apply to account 123456789012 (from the organization's management account), for example with " +
          '{"Effect":"Allow","Action":"iam:ListAccountAliases","Resource":"*"}. Without it discovery would miss the account alias, so the CloudAccountBoundary is named by its id only.',
      },
    ]);

    aws.state.denied[awsUser.arn] = { 'iam:GetAccountAuthorizationDetails': 'boundary' };
    expect((await runTest(userKeys)).remediation).toEqual([
      {
        category: 'permissions',
        message: `iam:GetAccountAuthorizationDetails is outside the permissions boundary of ${awsUser.arn}.`,
        action: `Add this statement to the permissions boundary policy of ${awsUser.arn}, as well as to its permissions: {"Effect":"Allow","Action":"iam:GetAccountAuthorizationDetails","Resource":"*"}. Without it discovery would miss IAM users, groups, roles and their policies (every Principal, Entitlement and assignment).`,
      },
    ]);
  });

  it('follows the pages of the simulation', async () => {
    aws.state.simulationPageSize = 1;
    aws.state.denied[awsUser.arn] = { 'iam:ListAccountAliases': 'implicitDeny' };
    const result = await runTest(userKeys);
    expect(result.remediation.map((r) => r.message)).toEqual([`iam:ListAccountAliases is not allowed for ${awsUser.arn}.`]);
    expect(aws.calls.filter((c) => c.action === 'SimulatePrincipalPolicy').map((c) => c.params.get('Marker'))).toEqual([null, '1']);
  });

  it('asks for iam:SimulatePrincipalPolicy on the principal itself when the simulation is refused', async () => {
    aws.state.denied[awsRole.arn] = { 'iam:SimulatePrincipalPolicy': 'implicitDeny' };
    expect((await runTest(viaRole)).remediation).toEqual([
      {
        category: 'permissions',
        message: `iam:SimulatePrincipalPolicy is not allowed for ${awsRole.arn}.`,
        action:
          `Attach to ${awsRole.arn} (inline or through a managed policy) this IAM policy statement: ` +
          `{"Effect":"Allow","Action":"iam:SimulatePrincipalPolicy","Resource":"${awsRole.arn}"}. ` +
          'Without it discovery would miss nothing itself, but the test operation cannot evaluate the other permissions.',
      },
    ]);
  });

  it('gives the trust policy statement (external id withheld) when the role cannot be assumed', async () => {
    const result = await runTest({ ...viaRole, external_id: 'not-the-agreed-external-id' });
    expect(result).toEqual({
      status: 'failure',
      remediation: [
        {
          category: 'permissions',
          message: `AWS refused sts:AssumeRole on ${awsRole.arn} for ${awsUser.arn}.`,
          action:
            `Add to the trust policy of ${awsRole.arn} the statement ` +
            `{"Effect":"Allow","Principal":{"AWS":"${awsUser.arn}"},"Action":"sts:AssumeRole","Condition":{"StringEquals":{"sts:ExternalId":"<the external_id of this connection>"}}}, ` +
            `and attach to ${awsUser.arn} the statement {"Effect":"Allow","Action":"sts:AssumeRole","Resource":"${awsRole.arn}"}. Without it discovery cannot read the account through the role.`,
        },
      ],
    });
  });

  it('reports an unknown access key and a wrong secret as credentials problems', async () => {
    const unknownKey = await runTest({ ...userKeys, access_key_id: 'AKIAUNKNOWNKEY000000' });
    expect(unknownKey.status).toBe('failure');
    expect(unknownKey.remediation).toEqual([
      {
        category: 'credentials',
        message: 'AWS rejected the access key (InvalidClientTokenId).',
        action: expect.stringContaining('Check access_key_id: it must be an active access key of an IAM user'),
      },
    ]);

    const wrongSecret = await runTest({ ...viaRole, secret_access_key: 'A'.repeat(40) });
    expect(wrongSecret.remediation).toEqual([
      {
        category: 'credentials',
        message: 'AWS rejected the request signature (SignatureDoesNotMatch): the secret access key does not belong to the access key id.',
        action: expect.stringContaining('Enter the secret access key shown when the access key was created'),
      },
    ]);
  });

  it('refuses the root user keys, which no policy can limit', async () => {
    const root = { arn: `arn:aws:iam::${AWS_ACCOUNT}:root`, accessKeyId: 'AKIAROOTKEYEXAMPLE00', secretAccessKey: 'rootSecretKeyOfTheFakeAwsAccount/0000000' };
    aws.state.users = [awsUser, root];
    const result = await runTest({ ...userKeys, access_key_id: root.accessKeyId, secret_access_key: root.secretAccessKey });
    expect(result.remediation).toEqual([
      expect.objectContaining({ category: 'credentials', message: 'The access key belongs to the root user of account 123456789012, which no policy can limit.' }),
    ]);
    expect(aws.calls.map((c) => c.action)).toEqual(['GetCallerIdentity']);
  });

  it('reports throttling without waiting it out', async () => {
    aws.state.throttle = 'iam';
    const result = await runTest(userKeys);
    expect(result.remediation).toEqual([expect.objectContaining({ category: 'throttling', message: expect.stringMatching(/^AWS IAM throttled the test/) })]);
  });

  it('stops at the time limit and says which service did not answer', async () => {
    aws.state.hang = 'sts';
    const result = await runTest(viaRole, 300);
    expect(result).toEqual({
      status: 'failure',
      remediation: [expect.objectContaining({ category: 'connectivity', message: expect.stringMatching(/^AWS STS did not answer within \d+(\.\d)? s\.$/) })],
    });

    aws.state.hang = 'iam';
    expect((await runTest(userKeys, 300)).remediation).toEqual([expect.objectContaining({ category: 'connectivity', message: expect.stringMatching(/^AWS IAM did not answer within \d+(\.\d)? s\.$/) })]);
  });

  it('reports an unreachable endpoint as connectivity', async () => {
    const closed = await startFakeAws();
    const url = closed.url;
    await closed.close();
    expect((await runTest(userKeys, 2_000, url)).remediation).toEqual([
      expect.objectContaining({ category: 'connectivity', message: 'AWS STS could not be reached (ECONNREFUSED).' }),
    ]);
  });
});
