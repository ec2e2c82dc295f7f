/**
 * The IAM actions the AWS connector calls, each with what discovery misses without it: the
 * catalog's `required_permissions`, the test's simulation and discovery's refusals all read
 * this one list, so a remediation always names an action the catalog asks for.
 */
import type { AwsPermission } from './remediation';

export const GET_ACCOUNT_AUTHORIZATION_DETAILS: AwsPermission = {
  action: 'iam:GetAccountAuthorizationDetails',
  misses: 'IAM users, groups, roles and their policies (every Principal, Entitlement and assignment)',
};

export const LIST_ACCOUNT_ALIASES: AwsPermission = {
  action: 'iam:ListAccountAliases',
  misses: 'the account alias, so the CloudAccountBoundary is named by its id only',
};

/** The test evaluates this action by calling it: a successful simulation proves it. */
export const SIMULATE_PRINCIPAL_POLICY: AwsPermission = {
  action: 'iam:SimulatePrincipalPolicy',
  misses: 'nothing itself, but the test operation cannot evaluate the other permissions',
};

export const awsPermissions: readonly AwsPermission[] = [GET_ACCOUNT_AUTHORIZATION_DETAILS, LIST_ACCOUNT_ALIASES, SIMULATE_PRINCIPAL_POLICY];
