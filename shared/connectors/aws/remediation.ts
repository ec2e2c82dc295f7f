/**
 * Remediation items of the AWS connector, each directly usable: the exact IAM policy statement
 * to attach, to which principal, and what discovery misses until then. Values of the
 * configuration other than the role ARN (which the fix must name) never appear here.
 */
import type { RemediationItem } from '../connector';
import type { AwsFailure } from './errors';
import { throttled, timedOut, unexpectedAnswer, unreachable } from '../outcome';

export interface AwsPermission {
  /** The IAM action, as IAM and the catalog's `required_permissions` spell it. */
  action: string;
  /** What discovery misses without it (completes "discovery would miss ..."). */
  misses: string;
}

export type AwsService = 'AWS STS' | 'AWS IAM';

/** One IAM policy statement, as JSON ready to paste into a policy's `Statement` array. */
export function allowStatement(action: string, resource: string): string {
  return JSON.stringify({ Effect: 'Allow', Action: action, Resource: resource });
}

export function missingPermission(permission: AwsPermission, principalArn: string, resource = '*'): RemediationItem {
  return {
    category: 'permissions',
    message: `${permission.action} is not allowed for ${principalArn}.`,
    action: `Attach to ${principalArn} (inline or through a managed policy) this IAM policy statement: ${allowStatement(permission.action, resource)}. Without it discovery would miss ${permission.misses}.`,
  };
}

export function explicitlyDenied(permission: AwsPermission, principalArn: string, denyingPolicies: readonly string[]): RemediationItem {
  const where = denyingPolicies.length > 0 ? denyingPolicies.join(', ') : 'a policy of the principal';
  return {
    category: 'permissions',
    message: `${permission.action} is explicitly denied for ${principalArn} by ${where}.`,
    action: `Remove ${permission.action} from the Deny statement in ${where} (an Allow never overrides an explicit Deny), then make sure ${principalArn} has ${allowStatement(permission.action, '*')}. Without it discovery would miss ${permission.misses}.`,
  };
}

export function blockedByOrganizations(permission: AwsPermission, principalArn: string, account: string): RemediationItem {
  return {
    category: 'permissions',
    message: `${permission.action} is blocked for ${principalArn} by a service control policy of AWS Organizations.`,
    action: `Allow ${permission.action} in the service control policies that apply to account ${account} (from the organization's management account), for example with ${allowStatement(permission.action, '*')}. Without it discovery would miss ${permission.misses}.`,
  };
}

export function blockedByBoundary(permission: AwsPermission, principalArn: string): RemediationItem {
  return {
    category: 'permissions',
    message: `${permission.action} is outside the permissions boundary of ${principalArn}.`,
    action: `Add this statement to the permissions boundary policy of ${principalArn}, as well as to its permissions: ${allowStatement(permission.action, '*')}. Without it discovery would miss ${permission.misses}.`,
  };
}

export function rejectedCredentials(code: string): RemediationItem {
  if (code === 'SignatureDoesNotMatch') {
    return {
      category: 'credentials',
      message: 'AWS rejected the request signature (SignatureDoesNotMatch): the secret access key does not belong to the access key id.',
      action: "Enter the secret access key shown when the access key was created; if it is lost, create a new access key for the IAM user and update the connection's configuration.",
    };
  }
  return {
    category: 'credentials',
    message: `AWS rejected the access key (${code}).`,
    action: "Check access_key_id: it must be an active access key of an IAM user (IAM > Users > the user > Security credentials). If it was deleted or deactivated, create a new access key and update the connection's configuration.",
  };
}

export function cannotAssumeRole(roleArn: string, callerArn: string | undefined, withExternalId: boolean): RemediationItem {
  const caller = callerArn ?? 'the IAM user of access_key_id';
  const trust = {
    Effect: 'Allow',
    Principal: { AWS: callerArn ?? 'arn:aws:iam::<account>:user/<name>' },
    Action: 'sts:AssumeRole',
    ...(withExternalId ? { Condition: { StringEquals: { 'sts:ExternalId': '<the external_id of this connection>' } } } : {}),
  };
  return {
    category: 'permissions',
    message: `AWS refused sts:AssumeRole on ${roleArn} for ${caller}.`,
    action: `Add to the trust policy of ${roleArn} the statement ${JSON.stringify(trust)}, and attach to ${caller} the statement ${allowStatement('sts:AssumeRole', roleArn)}. Without it discovery cannot read the account through the role.`,
  };
}

/** Discovery of an account other than the key's own needs a role to assume there. */
export function noRoleForAccount(account: string, callerArn: string): RemediationItem {
  return {
    category: 'configuration',
    message: `Account ${account} is in scope, but the access key belongs to ${callerArn} of another account and no role_arn is configured.`,
    action:
      `Create a discovery role (same name and path in every account in scope) whose trust policy allows ${callerArn} (with an external id), ` +
      `give it this integration's required permissions, then set role_arn (and external_id) on the connection; or remove ${account} from scope.account_ids.`,
  };
}

export function stsRegionDisabled(region: string): RemediationItem {
  return {
    category: 'configuration',
    message: `AWS STS is not activated in region ${region}.`,
    action: `Activate STS in ${region} (IAM > Account settings > Security Token Service (STS) endpoints) or set region to an activated region.`,
  };
}

export function rootUserKeys(account: string): RemediationItem {
  return {
    category: 'credentials',
    message: `The access key belongs to the root user of account ${account}, which no policy can limit.`,
    action: "Create an IAM user (or a role to assume) for discovery with this integration's required permissions, use its access key, and delete the root user's access keys.",
  };
}

export function unevaluablePrincipal(principalArn: string, code?: string): RemediationItem {
  return {
    category: 'configuration',
    message: `IAM cannot evaluate the permissions of ${principalArn}${code ? ` (${code})` : ''}.`,
    action: 'Use the access key of an IAM user; to discover through a role, set role_arn to the full role ARN, path included.',
  };
}

/** The kinds every AWS call shares; the caller handles the call-specific ones first. */
export function awsFailureItem(service: AwsService, failure: AwsFailure, elapsedMs: number): RemediationItem {
  switch (failure.kind) {
    case 'timeout':
      return timedOut(service, elapsedMs);
    case 'unreachable':
      return unreachable(service, failure.reason);
    case 'throttled':
      return throttled(service, 'the test does not retry, to stay within its time limit');
    case 'rejected-credentials':
      return rejectedCredentials(failure.code);
    case 'access-denied':
    case 'service':
      return unexpectedAnswer(service, failure.kind === 'service' && failure.status ? `${failure.code}, HTTP ${failure.status}` : failure.code);
  }
}
