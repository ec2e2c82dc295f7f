/**
 * The AWS IAM connector (cloud provider A): its connection test and its discovery. Apart from the
 * catalog entry (`integration.ts`: schemas, examples, permissions), so that the functions that only
 * validate a configuration do not bundle the provider clients.
 */
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { IAMClient, SimulatePrincipalPolicyCommand, type EvaluationResult } from '@aws-sdk/client-iam';
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from '../connector';
import { classifyAwsError, type AwsFailure } from './errors';
import { simulationPrincipal } from './principal';
import { awsFailureItem, blockedByBoundary, blockedByOrganizations, cannotAssumeRole, explicitlyDenied, missingPermission, rejectedCredentials, rootUserKeys, stsRegionDisabled, unevaluablePrincipal, type AwsPermission } from './remediation';
import { awsPermissions, SIMULATE_PRINCIPAL_POLICY } from './permissions';
import { awsDiscovery } from './discovery';
import { neverThrows, resultOf, startTimer } from '../outcome';
import { type AwsConfiguration, type AwsScope } from './integration';

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
    private readonly configuration: AwsConfiguration,
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

async function testCloudProviderA(configuration: AwsConfiguration, context: ConnectorContext): Promise<ConnectorTestResult> {
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
  configuration: AwsConfiguration,
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
  const actionNames = awsPermissions.map((p) => p.action).filter((action) => action !== SIMULATE);
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
  return awsPermissions.find((p) => p.action === action) ?? { action, misses: 'part of what discovery reads' };
}

export const awsConnector: Connector<AwsConfiguration, AwsScope> = {
  test: ({ configuration }, context) => neverThrows('AWS', () => testCloudProviderA(configuration, context)),
  discover: awsDiscovery,
};
