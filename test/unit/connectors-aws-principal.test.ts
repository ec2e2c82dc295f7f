/** Which IAM ARN SimulatePrincipalPolicy is given, from what GetCallerIdentity answers. */
import { describe, expect, it } from 'vitest';
import { simulationPrincipal } from '../../shared/connectors/aws/principal';

describe('simulation principal', () => {
  it('is the user ARN for IAM user keys', () => {
    expect(simulationPrincipal('arn:aws:iam::111122223333:user/ops/discovery')).toEqual({
      kind: 'user',
      arn: 'arn:aws:iam::111122223333:user/ops/discovery',
      account: '111122223333',
    });
  });

  it('is the ROLE ARN, never the session ARN, for an assumed role', () => {
    expect(simulationPrincipal('arn:aws:sts::111122223333:assumed-role/Discovery/tessera-connection-test')).toEqual({
      kind: 'role',
      arn: 'arn:aws:iam::111122223333:role/Discovery',
      account: '111122223333',
    });
  });

  it('keeps the path of the configured role, which the session ARN drops', () => {
    const configured = 'arn:aws:iam::111122223333:role/security/tools/Discovery';
    expect(simulationPrincipal('arn:aws:sts::111122223333:assumed-role/Discovery/s', configured)).toEqual({ kind: 'role', arn: configured, account: '111122223333' });
  });

  it('ignores a configured role of another name or account', () => {
    const session = 'arn:aws:sts::111122223333:assumed-role/Discovery/s';
    expect(simulationPrincipal(session, 'arn:aws:iam::111122223333:role/Other')).toMatchObject({ arn: 'arn:aws:iam::111122223333:role/Discovery' });
    expect(simulationPrincipal(session, 'arn:aws:iam::444455556666:role/Discovery')).toMatchObject({ arn: 'arn:aws:iam::111122223333:role/Discovery' });
  });

  it('keeps the partition', () => {
    expect(simulationPrincipal('arn:aws-cn:sts::111122223333:assumed-role/Discovery/s')).toMatchObject({ arn: 'arn:aws-cn:iam::111122223333:role/Discovery' });
  });

  it('recognises root keys and principals IAM cannot evaluate', () => {
    expect(simulationPrincipal('arn:aws:iam::111122223333:root')).toEqual({ kind: 'root', account: '111122223333' });
    expect(simulationPrincipal('arn:aws:sts::111122223333:federated-user/bob')).toEqual({ kind: 'unsupported', arn: 'arn:aws:sts::111122223333:federated-user/bob' });
    expect(simulationPrincipal('')).toEqual({ kind: 'unsupported', arn: '' });
  });
});
