/**
 * Where the audit chains' heads are anchored (shared/audit/s3-audit-anchor.ts): an S3 bucket
 * with Object Lock in compliance mode. Every object version is kept for the retention period
 * (`auditAnchorRetentionDays`) and nobody, the account's root included, can delete it or shorten
 * its retention before then; versioning (which Object Lock needs) keeps an overwrite from
 * replacing anything. The functions that append to an audit chain may only put objects
 * (infra/handler-capabilities.ts `auditAppendingHandlers`); no role of the stack may delete
 * one. The bucket is retained when the stack goes, as the table is.
 */
import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface AuditAnchorBucketProps {
  env: string;
  /** How long every recorded head is locked, in days. */
  retentionDays: number;
  /** Where the bucket's server access logs go (the edge's log bucket). */
  logBucket: s3.IBucket;
}

/**
 * The bucket's name, from the environment and the account (an environment lives in one account
 * and region): the functions' nested stacks name it and its objects with pseudo parameters
 * alone, so no cross-stack reference (and no generated parameter name) enters their policies.
 * At most 8 + 32 + 9 + 12 = 61 characters.
 */
export const auditAnchorBucketName = (env: string) => `tessera-${env}-anchors-${Aws.ACCOUNT_ID}`;

export class AuditAnchorBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly bucketName: string;
  /** The ARN pattern of its objects, as the grants and their cdk-nag acknowledgement name it. */
  readonly objectsArn: string;

  constructor(scope: Construct, id: string, props: AuditAnchorBucketProps) {
    super(scope, id);
    this.bucketName = auditAnchorBucketName(props.env);
    this.objectsArn = `arn:${Aws.PARTITION}:s3:::${this.bucketName}/*`;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: this.bucketName,
      objectLockEnabled: true,
      objectLockDefaultRetention: s3.ObjectLockRetention.compliance(Duration.days(props.retentionDays)),
      versioned: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'audit-anchor-bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** What an appending function may do: put a head's object, nothing else (no read, no delete). */
  putStatement(): iam.PolicyStatement {
    return new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [this.objectsArn] });
  }
}
