/**
 * Cloud provider A (an AWS account): configuration and scope schemas, the test operation as a
 * real AWS SDK client, and discovery (cloud-provider-a-discovery.ts). The IAM permissions both
 * need are listed in aws-permissions.ts.
 *
 * The test proves more than "the key works": STS GetCallerIdentity (after AssumeRole when a
 * role is configured) names the principal, then IAM SimulatePrincipalPolicy evaluates every
 * required permission on that principal's IAM ARN, so a missing one comes back as the exact
 * statement to attach.
 */
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { IAMClient, SimulatePrincipalPolicyCommand, type EvaluationResult } from '@aws-sdk/client-iam';
import * as z from 'zod/mini';
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from './connector';
import { classifyAwsError, type AwsFailure } from './aws-errors';
import { simulationPrincipal } from './aws-principal';
import {
  awsFailureItem,
  blockedByBoundary,
  blockedByOrganizations,
  cannotAssumeRole,
  explicitlyDenied,
  missingPermission,
  rejectedCredentials,
  rootUserKeys,
  stsRegionDisabled,
  unevaluablePrincipal,
  type AwsPermission,
} from './aws-remediation';
import { cloudProviderAPermissions, SIMULATE_PRINCIPAL_POLICY } from './aws-permissions';
import { cloudProviderADiscovery } from './cloud-provider-a-discovery';
import { neverThrows, resultOf, startTimer } from './outcome';

const ACCOUNT_ID = z.string().check(z.regex(/^\d{12}$/, { message: 'must be a 12-digit AWS account id' }));

export const CloudProviderAConfigurationSchema = z
  .strictObject({
    access_key_id: z
      .string()
      .check(
        z.regex(/^AKIA[A-Z0-9]{16}$/, { message: 'must be the access key id of an IAM user (AKIA...)' }),
        z.meta({ description: 'Access key id of an IAM user (long-term key; temporary ASIA keys expire).' }),
      ),
    secret_access_key: z
      .string()
      .check(
        z.regex(/^[A-Za-z0-9/+]{40}$/, { message: 'must be a 40-character secret access key' }),
        z.meta({ description: 'Secret access key of that access key id.', writeOnly: true }),
      ),
    region: z
      .string()
      .check(
        z.regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, { message: 'must be an AWS region such as eu-west-1' }),
        z.meta({ description: 'Region of the STS endpoint the connector calls.' }),
      ),
    role_arn: z
      .optional(z.string().check(z.regex(/^arn:aws(-cn|-us-gov)?:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/, { message: 'must be an IAM role ARN' })))
      .check(z.meta({ description: 'Role to assume for discovery (full ARN, path included).' })),
    // Not a secret by AWS's definition, but it is what keeps another tenant from making the
    // service assume this role (confused deputy): write-only like the rest, never echoed.
    external_id: z
      .optional(z.string().check(z.regex(/^[\w+=,.@:/-]{2,1224}$/, { message: 'must be 2 to 1224 characters of [A-Za-z0-9+=,.@:/_-]' })))
      .check(z.meta({ description: 'External id required by the role trust policy.', writeOnly: true })),
  })
  .check(
    z.refine((c) => c.external_id === undefined || c.role_arn !== undefined, { message: 'requires role_arn', path: ['external_id'] }),
    z.meta({ dependentRequired: { external_id: ['role_arn'] } }),
  );

export const CloudProviderAScopeSchema = z.strictObject({
  account_ids: z
    .array(ACCOUNT_ID)
    .check(
      z.minLength(1),
      z.maxLength(100),
      z.refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat an account id' }),
      z.meta({ description: 'AWS accounts to discover.', uniqueItems: true }),
    ),
});

export type CloudProviderAConfiguration = z.infer<typeof CloudProviderAConfigurationSchema>;
export type CloudProviderAScope = z.infer<typeof CloudProviderAScopeSchema>;

export const cloudProviderAExamples: { configuration: CloudProviderAConfiguration; scope: CloudProviderAScope } = {
  // AWS's documented example key pair: valid in shape, never a real credential.
  configuration: {
    access_key_id: 'AKIAIOSFODNN7EXAMPLE',
    secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    region: 'eu-west-1',
    role_arn: 'arn:aws:iam::123456789012:role/TesseraDiscovery',
    external_id: 'tessera-7f3c9a2e41d8',
  },
  scope: { account_ids: ['123456789012'] },
};

export { cloudProviderAPermissions };

const SIMULATE = SIMULATE_PRINCIPAL_POLICY.action;

const ROLE_SESSION_NAME = 'tessera-connection-test';
/** SimulatePrincipalPolicy pages; a handful of actions fit in one, this only bounds a bad answer. */
const MAX_SIMULATION_PAGES = 10;

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; failure: AwsFailure };

/**
 * The SDK clients of one test. Credentials always come from the configuration, never from the
 * default chain (which would be the service's own Lambda role). One attempt per call: the test
 * is interactive and bounded by the caller's time limit, so a throttled or failing call is
 * reported rather than waited out.
 */
class AwsSession {
  private readonly clients: { destroy(): void }[] = [];

  constructor(
    private readonly configuration: CloudProviderAConfiguration,
    private readonly context: ConnectorContext,
  ) {}

  sts(credentials: Credentials): STSClient {
    return this.track(new STSClient({ region: this.configuration.region, credentials, endpoint: this.context.endpoints?.sts, maxAttempts: 1 }));
  }

  iam(credentials: Credentials): IAMClient {
    return this.track(new IAMClient({ region: this.configuration.region, credentials, endpoint: this.context.endpoints?.iam, maxAttempts: 1 }));
  }

  async attempt<T>(call: (abortSignal: AbortSignal) => Promise<T>): Promise<Attempt<T>> {
    try {
      return { ok: true, value: await call(this.context.signal) };
    } catch (error) {
      return { ok: false, failure: classifyAwsError(error, this.context.signal) };
    }
  }

  /** Closes the sockets the clients keep alive. */
  close(): void {
    for (const client of this.clients) client.destroy();
  }

  private track<C extends { destroy(): void }>(client: C): C {
    this.clients.push(client);
    return client;
  }
}

async function testCloudProviderA(configuration: CloudProviderAConfiguration, context: ConnectorContext): Promise<ConnectorTestResult> {
  const elapsed = startTimer();
  const aws = new AwsSession(configuration, context);
  try {
    const base: Credentials = { accessKeyId: configuration.access_key_id, secretAccessKey: configuration.secret_access_key };

    let credentials = base;
    if (configuration.role_arn) {
      const assumed = await assumeRole(aws, base, configuration.role_arn, configuration.external_id);
      if (!assumed.ok) return resultOf([await assumeRoleFailure(aws, base, configuration, assumed.failure, elapsed())]);
      credentials = assumed.value;
    }

    const identity = await aws.attempt((abortSignal) => aws.sts(credentials).send(new GetCallerIdentityCommand({}), { abortSignal }));
    if (!identity.ok) {
      // No policy can deny GetCallerIdentity to valid credentials: a refusal means the key is not usable.
      const failure = identity.failure;
      return resultOf([failure.kind === 'access-denied' ? rejectedCredentials(failure.code) : awsFailureItem('AWS STS', failure, elapsed())]);
    }

    const principal = simulationPrincipal(identity.value.Arn ?? '', configuration.role_arn);
    if (principal.kind === 'root') return resultOf([rootUserKeys(principal.account)]);
    if (principal.kind === 'unsupported') return resultOf([unevaluablePrincipal(principal.arn)]);

    const simulated = await simulate(aws, credentials, principal.arn);
    if (!simulated.ok) {
      const failure = simulated.failure;
      if (failure.kind === 'access-denied') return resultOf([missingPermission(permissionOf(SIMULATE), principal.arn, principal.arn)]);
      if (failure.kind === 'service' && (failure.code === 'NoSuchEntity' || failure.code === 'InvalidInput')) {
        return resultOf([unevaluablePrincipal(principal.arn, failure.code)]);
      }
      return resultOf([awsFailureItem('AWS IAM', failure, elapsed())]);
    }
    return resultOf(simulated.value.flatMap((result) => remediationFor(result, principal.arn, principal.account)));
  } finally {
    aws.close();
  }
}

async function assumeRole(aws: AwsSession, base: Credentials, roleArn: string, externalId: string | undefined): Promise<Attempt<Credentials>> {
  const assumed = await aws.attempt((abortSignal) =>
    aws.sts(base).send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: ROLE_SESSION_NAME, ExternalId: externalId, DurationSeconds: 900 }), { abortSignal }),
  );
  if (!assumed.ok) return assumed;
  const issued = assumed.value.Credentials;
  if (!issued?.AccessKeyId || !issued.SecretAccessKey) return { ok: false, failure: { kind: 'service', code: 'AssumeRoleWithoutCredentials', status: undefined } };
  return { ok: true, value: { accessKeyId: issued.AccessKeyId, secretAccessKey: issued.SecretAccessKey, sessionToken: issued.SessionToken } };
}

async function assumeRoleFailure(
  aws: AwsSession,
  base: Credentials,
  configuration: CloudProviderAConfiguration,
  failure: AwsFailure,
  elapsedMs: number,
): Promise<RemediationItem> {
  if (failure.kind === 'access-denied' && configuration.role_arn) {
    // Name the principal the trust policy must allow; best effort, the item stands without it.
    const caller = await aws.attempt((abortSignal) => aws.sts(base).send(new GetCallerIdentityCommand({}), { abortSignal }));
    return cannotAssumeRole(configuration.role_arn, caller.ok ? caller.value.Arn : undefined, configuration.external_id !== undefined);
  }
  if (failure.kind === 'service' && failure.code === 'RegionDisabledException') return stsRegionDisabled(configuration.region);
  return awsFailureItem('AWS STS', failure, elapsedMs);
}

async function simulate(aws: AwsSession, credentials: Credentials, principalArn: string): Promise<Attempt<EvaluationResult[]>> {
  const iam = aws.iam(credentials);
  const actionNames = cloudProviderAPermissions.map((p) => p.action).filter((action) => action !== SIMULATE);
  const results: EvaluationResult[] = [];
  let marker: string | undefined;
  for (let page = 0; page < MAX_SIMULATION_PAGES; page += 1) {
    const answer = await aws.attempt((abortSignal) =>
      iam.send(new SimulatePrincipalPolicyCommand({ PolicySourceArn: principalArn, ActionNames: actionNames, Marker: marker }), { abortSignal }),
    );
    if (!answer.ok) return answer;
    results.push(...(answer.value.EvaluationResults ?? []));
    marker = answer.value.IsTruncated ? answer.value.Marker : undefined;
    if (!marker) break;
  }
  return { ok: true, value: results };
}

function remediationFor(result: EvaluationResult, principalArn: string, account: string): RemediationItem[] {
  if (result.EvalDecision === 'allowed' || !result.EvalActionName) return [];
  const permission = permissionOf(result.EvalActionName);
  if (result.EvalDecision === 'explicitDeny') {
    const policies = (result.MatchedStatements ?? []).map((s) => s.SourcePolicyId).filter((id): id is string => Boolean(id));
    return [explicitlyDenied(permission, principalArn, [...new Set(policies)])];
  }
  if (result.OrganizationsDecisionDetail?.AllowedByOrganizations === false) return [blockedByOrganizations(permission, principalArn, account)];
  if (result.PermissionsBoundaryDecisionDetail?.AllowedByPermissionsBoundary === false) return [blockedByBoundary(permission, principalArn)];
  return [missingPermission(permission, principalArn)];
}

function permissionOf(action: string): AwsPermission {
  return cloudProviderAPermissions.find((p) => p.action === action) ?? { action, misses: 'part of what discovery reads' };
}

export const cloudProviderAConnector: Connector<CloudProviderAConfiguration, CloudProviderAScope> = {
  test: ({ configuration }, context) => neverThrows('AWS', () => testCloudProviderA(configuration, context)),
  discover: cloudProviderADiscovery,
};
