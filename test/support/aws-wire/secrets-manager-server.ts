/**
 * A local AWS Secrets Manager over its wire protocol (AWS JSON 1.1, `X-Amz-Target:
 * secretsmanager.<Operation>`, SigV4 with service `secretsmanager`).
 *
 * What it reproduces of the Secrets Manager API reference:
 * - GetSecretValue by ARN or name, of `VersionId` or `VersionStage` (AWSCURRENT when neither):
 *   `ARN`, `Name`, `VersionId`, `SecretString`, `VersionStages`, `CreatedDate`.
 * - PutSecretValue (`SecretString` or `SecretBinary`): a new version (its id the request's `ClientRequestToken`, which the SDK
 *   fills in and a raw request must carry) that takes AWSCURRENT; a token that names a version
 *   already there is idempotent (the same value: nothing changes) or 400
 *   `ResourceExistsException` (another value), so a retried put makes no second version; the version that had it takes AWSPREVIOUS, and the one
 *   before loses its label ("Secrets Manager moves the AWSPREVIOUS staging label to the version
 *   that AWSCURRENT was removed from").
 * - 400 `ResourceNotFoundException` for an unknown secret ("Secrets Manager can't find the
 *   specified secret.") and for a stage no version has ("… can't find the specified secret
 *   value for staging label: AWSPREVIOUS"), as before the first rotation.
 * - 400 `AccessDeniedException` when the caller's policy does not allow the action
 *   (`secretsmanager:GetSecretValue`, `secretsmanager:PutSecretValue`) on the secret's ARN,
 *   with the condition keys `secretsmanager:SecretId` and `secretsmanager:VersionStage` (the
 *   stage the request names).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { startLocalServer } from '../../../infra/local/stand-ins/local-server';
import { CALLER_ARN, TEST_ACCOUNT, TEST_REGION } from './caller';
import { ALLOW_ALL, isAllowed, notAuthorizedMessage, type IamStatement } from './iam-policy';
import { answerJsonRequest, AwsJsonError, stringMember } from './json-protocol';

interface SecretVersion {
  id: string;
  /** A Buffer is a `SecretBinary` secret. */
  value: string | Buffer;
  stages: string[];
  createdAt: number;
}

interface StoredSecret {
  arn: string;
  name: string;
  versions: SecretVersion[];
}

export interface SecretsManagerCall {
  operation: string;
  secretId: string;
  versionStage: string | undefined;
  /** PutSecretValue: the idempotency token it carried, if any. */
  clientRequestToken?: string;
}

export interface SecretsManagerServer {
  /** For `AWS_ENDPOINT_URL_SECRETS_MANAGER`. */
  endpoint: string;
  calls: SecretsManagerCall[];
  policy: IamStatement[];
  /** A secret with one version (AWSCURRENT; a Buffer is binary); its ARN, with the random suffix AWS adds to names. */
  createSecret(name: string, value: string | Buffer): string;
  /** The value of the version that has `stage` now, if one has. */
  valueAt(secretArn: string, stage: string): string | Buffer | undefined;
  close(): Promise<void>;
}

export async function startSecretsManagerServer(region = TEST_REGION): Promise<SecretsManagerServer> {
  const secrets = new Map<string, StoredSecret>();
  const find = (secretId: unknown) => {
    const secret = [...secrets.values()].find((s) => s.arn === secretId || s.name === secretId);
    if (!secret) throw new AwsJsonError({ status: 400, type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
    return secret;
  };
  const addVersion = (secret: StoredSecret, value: string | Buffer, id: string) => {
    for (const version of secret.versions) {
      const hadCurrent = version.stages.includes('AWSCURRENT');
      version.stages = version.stages.filter((stage) => stage !== 'AWSCURRENT' && stage !== 'AWSPREVIOUS');
      if (hadCurrent) version.stages.push('AWSPREVIOUS');
    }
    const version = { id, value, stages: ['AWSCURRENT'], createdAt: Date.now() / 1000 };
    secret.versions.push(version);
    return version;
  };

  const server: SecretsManagerServer = {
    endpoint: '',
    calls: [],
    policy: ALLOW_ALL,
    createSecret(name, value) {
      const arn = `arn:aws:secretsmanager:${region}:${TEST_ACCOUNT}:secret:${name}-${randomBytes(3).toString('hex')}`;
      const secret = { arn, name, versions: [] };
      addVersion(secret, value, randomUUID());
      secrets.set(arn, secret);
      return arn;
    },
    valueAt: (secretArn, stage) => secrets.get(secretArn)?.versions.find((v) => v.stages.includes(stage))?.value,
    close: () => Promise.resolve(),
  };

  const authorize = (action: string, secretId: string, versionStage?: string) => {
    // AWS judges the ARN the request names; a name is judged as the secret's ARN when it exists.
    const resource = [...secrets.values()].find((s) => s.name === secretId)?.arn ?? secretId;
    if (!isAllowed(server.policy, action, resource, { 'secretsmanager:SecretId': resource, 'secretsmanager:VersionStage': versionStage })) throw new AwsJsonError({ status: 400, type: 'AccessDeniedException', message: notAuthorizedMessage(CALLER_ARN, action, resource) });
  };

  const local = await startLocalServer((request) =>
    answerJsonRequest(request, { version: '1.1', targetPrefix: 'secretsmanager', signingName: 'secretsmanager', region }, ({ operation, input }) => {
      const secretId = stringMember(input, 'SecretId');
      const token = typeof input.ClientRequestToken === 'string' ? input.ClientRequestToken : undefined;
      server.calls.push({ operation, secretId, versionStage: input.VersionStage as string | undefined, ...(token !== undefined ? { clientRequestToken: token } : {}) });
      if (operation === 'GetSecretValue') {
        const stage = input.VersionId === undefined ? stringMember(input, 'VersionStage', 'AWSCURRENT') : undefined;
        authorize('secretsmanager:GetSecretValue', secretId, input.VersionStage as string | undefined);
        const secret = find(secretId);
        const version = secret.versions.find((v) => (stage ? v.stages.includes(stage) : v.id === input.VersionId));
        if (!version) {
          throw new AwsJsonError({ status: 400, type: 'ResourceNotFoundException', message: stage ? `Secrets Manager can't find the specified secret value for staging label: ${stage}` : `Secrets Manager can't find the specified secret value for VersionId: ${String(input.VersionId)}` });
        }
        const value = typeof version.value === 'string' ? { SecretString: version.value } : { SecretBinary: version.value.toString('base64') };
        return { ARN: secret.arn, Name: secret.name, VersionId: version.id, ...value, VersionStages: version.stages, CreatedDate: version.createdAt };
      }
      if (operation === 'PutSecretValue') {
        authorize('secretsmanager:PutSecretValue', secretId);
        const secret = find(secretId);
        const value = typeof input.SecretBinary === 'string' && input.SecretBinary ? Buffer.from(input.SecretBinary, 'base64') : input.SecretString;
        if (value === undefined || value === '' || (typeof value !== 'string' && !Buffer.isBuffer(value))) {
          throw new AwsJsonError({ status: 400, type: 'InvalidParameterException', message: 'You must provide either SecretString or SecretBinary.' });
        }
        const existing = token === undefined ? undefined : secret.versions.find((v) => v.id === token);
        if (existing) {
          const same = typeof value === 'string' ? existing.value === value : Buffer.isBuffer(existing.value) && existing.value.equals(value);
          if (!same) throw new AwsJsonError({ status: 400, type: 'ResourceExistsException', message: `You can't modify an existing version, you can only create a new version. VersionId: ${token}` });
          return { ARN: secret.arn, Name: secret.name, VersionId: existing.id, VersionStages: existing.stages };
        }
        const version = addVersion(secret, value, token ?? randomUUID());
        return { ARN: secret.arn, Name: secret.name, VersionId: version.id, VersionStages: version.stages };
      }
      throw new AwsJsonError({ status: 400, type: 'UnknownOperationException', message: `secretsmanager.${operation} is not reproduced here` });
    }),
  );
  server.endpoint = local.url;
  server.close = () => local.close();
  return server;
}
