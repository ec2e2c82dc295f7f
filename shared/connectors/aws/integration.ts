/**
 * Cloud provider A (an AWS account): configuration and scope schemas, the test operation as a
 * real AWS SDK client, and discovery (discovery.ts). The IAM permissions both
 * need are listed in permissions.ts.
 *
 * The test proves more than "the key works": STS GetCallerIdentity (after AssumeRole when a
 * role is configured) names the principal, then IAM SimulatePrincipalPolicy evaluates every
 * required permission on that principal's IAM ARN, so a missing one comes back as the exact
 * statement to attach.
 */
import * as z from 'zod/mini';
import { awsPermissions } from './permissions';
import type { DiscoveryTrack } from '../discovery';

const ACCOUNT_ID = z.string().check(z.regex(/^\d{12}$/, { message: 'must be a 12-digit AWS account id' }));

export const AwsConfigurationSchema = z
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

export const AwsScopeSchema = z.strictObject({
  account_ids: z
    .array(ACCOUNT_ID)
    .check(
      z.minLength(1),
      z.maxLength(100),
      z.refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat an account id' }),
      z.meta({ description: 'AWS accounts to discover.', uniqueItems: true }),
    ),
});

export type AwsConfiguration = z.infer<typeof AwsConfigurationSchema>;
export type AwsScope = z.infer<typeof AwsScopeSchema>;

export const awsExamples: { configuration: AwsConfiguration; scope: AwsScope } = {
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

export { awsPermissions };

/** What a discovery run of this scope reads, track by track (its progress starts from these; the connector reads them). */
export const awsTracks = (scope: AwsScope): DiscoveryTrack[] => scope.account_ids.map((id) => ({ name: `account:${id}` }));
