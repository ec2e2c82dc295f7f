/**
 * The AWS stage of Tessera against the local AWS servers of this directory: the five servers,
 * the secrets and queue the stack would create, the configuration variables a deployed function
 * gets (`TESSERA_STAGE=aws`, the secret ARNs, the key ARN, the queue URL), and the SDK's own
 * environment variables that point its clients here: the service-specific endpoint variables
 * `AWS_ENDPOINT_URL_<SERVICE ID>` (AWS SDKs and Tools reference guide, "Service-specific
 * endpoints"; the JS SDK v3 reads them in `@smithy/core`'s endpoint resolution) and the static
 * keys of `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`. The production code is unchanged: it
 * makes its clients with a region only, as in Lambda.
 */
import { vi } from 'vitest';
import { newSigningSeed } from '../../../shared/crypto/signing-keys';
import { TEST_CREDENTIALS, TEST_REGION } from './caller';
import { startKmsServer, type KmsServer } from './kms-server';
import { startSecretsManagerServer, type SecretsManagerServer } from './secrets-manager-server';
import { startS3Server, type S3Server } from './s3-server';
import { startSesv2Server, type Sesv2Server } from './sesv2-server';
import { startSqsServer, type SqsServer } from './sqs-server';

export const SENDER = 'Tessera <no-reply@tessera-wire.example>';

export interface AwsWire {
  kms: KmsServer;
  secretsManager: SecretsManagerServer;
  ses: Sesv2Server;
  sqs: SqsServer;
  s3: S3Server;
  auditAnchorBucket: string;
  signingSecretArn: string;
  cursorSecretArn: string;
  runQueueUrl: string;
  /** Tessera's configuration variables of the aws stage, for `loadConfig` or a test host. */
  config: Record<string, string>;
  close(): Promise<void>;
}

export async function startAwsWire(): Promise<AwsWire> {
  const [kms, secretsManager, ses, sqs, s3] = await Promise.all([startKmsServer(), startSecretsManagerServer(), startSesv2Server(), startSqsServer(), startS3Server()]);
  const auditAnchorBucket = 'tessera-audit-anchor-wire';
  s3.createBucket(auditAnchorBucket, { objectLock: true });
  const signingSecretArn = secretsManager.createSecret('tessera-jwt-signing-seed', newSigningSeed());
  const cursorSecretArn = secretsManager.createSecret('tessera-cursor-key', newSigningSeed());
  const runQueueUrl = sqs.createQueue('tessera-runs');
  ses.verifiedIdentities.add('tessera-wire.example');
  return {
    kms,
    secretsManager,
    ses,
    sqs,
    s3,
    auditAnchorBucket,
    signingSecretArn,
    cursorSecretArn,
    runQueueUrl,
    config: {
      TESSERA_STAGE: 'aws',
      AWS_REGION: TEST_REGION,
      TESSERA_SIGNING_KEY_SECRET_ARN: signingSecretArn,
      TESSERA_CURSOR_KEY_SECRET_ARN: cursorSecretArn,
      TESSERA_KMS_KEY_ARN: kms.keyArn,
      TESSERA_RUN_QUEUE_URL: runQueueUrl,
      TESSERA_EMAIL_FROM: SENDER,
      TESSERA_AUDIT_ANCHOR_BUCKET: auditAnchorBucket,
      // Tessera's own AWS clients (shared/aws/) take their endpoints from the configuration.
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_KMS: kms.endpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.endpoint,
      AWS_ENDPOINT_URL_SESV2: ses.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    },
    close: async () => {
      await Promise.all([kms.close(), secretsManager.close(), ses.close(), sqs.close(), s3.close()]);
    },
  };
}

/**
 * Points every SDK client made from now on at the servers, with the test caller's keys, as
 * Lambda's environment would point them at AWS. `vi.unstubAllEnvs()` undoes it.
 */
export function pointSdkClientsAt(wire: AwsWire): void {
  vi.stubEnv('AWS_ENDPOINT_URL_KMS', wire.kms.endpoint);
  vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', wire.secretsManager.endpoint);
  vi.stubEnv('AWS_ENDPOINT_URL_SESV2', wire.ses.endpoint);
  vi.stubEnv('AWS_ENDPOINT_URL_SQS', wire.sqs.endpoint);
  vi.stubEnv('AWS_ENDPOINT_URL_S3', wire.s3.endpoint);
  vi.stubEnv('AWS_ACCESS_KEY_ID', TEST_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', TEST_CREDENTIALS.secretAccessKey);
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  // No shared config or credentials file of the machine may stand in for the variables above.
  vi.stubEnv('AWS_PROFILE', undefined);
  vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/tessera-aws-wire-config');
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/tessera-aws-wire-credentials');
}
