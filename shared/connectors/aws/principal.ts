/**
 * Which IAM principal to evaluate, from the ARN that STS GetCallerIdentity answers.
 *
 * SimulatePrincipalPolicy takes an IAM user, group or role ARN. For assumed-role credentials
 * GetCallerIdentity answers the *session* ARN (`arn:aws:sts::111122223333:assumed-role/Name/session`),
 * which IAM refuses; the policies belong to the role (`arn:aws:iam::111122223333:role/path/Name`).
 * The session ARN drops the role's path, so the configured role ARN (which has it) wins when its
 * name and account match.
 */

export type SimulationPrincipal =
  | { kind: 'user' | 'role'; arn: string; account: string }
  | { kind: 'root'; account: string }
  | { kind: 'unsupported'; arn: string };

const ARN = /^arn:(aws|aws-cn|aws-us-gov):(iam|sts)::(\d{12}):(.+)$/;

export function simulationPrincipal(callerArn: string, configuredRoleArn?: string): SimulationPrincipal {
  const match = ARN.exec(callerArn);
  if (!match) return { kind: 'unsupported', arn: callerArn };
  const [, partition = '', service = '', account = '', resource = ''] = match;

  if (service === 'iam' && resource === 'root') return { kind: 'root', account };
  if (service === 'iam' && resource.startsWith('user/')) return { kind: 'user', arn: callerArn, account };
  if (service === 'iam' && resource.startsWith('role/')) return { kind: 'role', arn: callerArn, account };

  if (service === 'sts' && resource.startsWith('assumed-role/')) {
    const roleName = resource.split('/')[1] ?? '';
    if (configuredRoleArn && roleMatches(configuredRoleArn, account, roleName)) return { kind: 'role', arn: configuredRoleArn, account };
    return { kind: 'role', arn: `arn:${partition}:iam::${account}:role/${roleName}`, account };
  }
  // federated-user sessions and anything newer have no IAM entity to simulate.
  return { kind: 'unsupported', arn: callerArn };
}

function roleMatches(roleArn: string, account: string, roleName: string): boolean {
  const match = ARN.exec(roleArn);
  if (!match || match[2] !== 'iam' || match[3] !== account) return false;
  const resource = match[4] ?? '';
  return resource.startsWith('role/') && resource.split('/').at(-1) === roleName;
}
