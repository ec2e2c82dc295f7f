/**
 * Where export files go (shared/exports/export-files.ts): a private S3 bucket, encrypted at rest
 * (SSE-S3), reachable over TLS only, with every kind of public access blocked and ACLs off. An
 * export is kept a day (`EXPORT_RETENTION_SECONDS`, the same as its record's), so a lifecycle
 * rule expires objects after one day and aborts a multipart upload a crashed job left behind.
 * The run worker may put objects (and abort its uploads); the content route may get them, which
 * is what makes the URLs it signs work; nothing may list or delete. The files are copies of data
 * the table keeps, so the bucket goes with the stack.
 */
import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EXPORT_RETENTION_SECONDS } from '../shared/exports/export-records';

/** Named from the environment and the account, like the anchor bucket: no cross-stack reference enters a policy. */
export const exportsBucketName = (env: string) => `tessera-${env}-exports-${Aws.ACCOUNT_ID}`;

/**
 * Where the signed URLs of export files point (shared/aws/s3-client.ts signs them virtual-hosted:
 * `https://<bucket>.s3.<region>.<suffix>`): the console's CSP lets it fetch from there.
 */
export const exportsDownloadOrigin = (env: string) => `https://${exportsBucketName(env)}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;

export const EXPORT_EXPIRY_DAYS = Math.ceil(EXPORT_RETENTION_SECONDS / 86_400);

export class ExportsBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly bucketName: string;
  readonly objectsArn: string;

  constructor(scope: Construct, id: string, props: { env: string; logBucket: s3.IBucket }) {
    super(scope, id);
    this.bucketName = exportsBucketName(props.env);
    this.objectsArn = `arn:${Aws.PARTITION}:s3:::${this.bucketName}/*`;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: this.bucketName,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'exports-bucket/',
      // The console fetches a file by following the content route's redirect to its signed URL;
      // after a cross-origin redirect the browser sends `Origin: null`, so any origin may read
      // an answer: only a request carrying a valid signature gets one, and the signature is
      // what grants it (no cookie or credential of the console's goes there).
      cors: [{ allowedMethods: [s3.HttpMethods.GET], allowedOrigins: ['*'], maxAge: 300 }],
      lifecycleRules: [{ id: 'expire-exports', expiration: Duration.days(EXPORT_EXPIRY_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });
  }

  /** The run worker writes export files: a PutObject, or a multipart upload (PutObject to IAM) it may abort. */
  writeStatement(): iam.PolicyStatement {
    return new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [this.objectsArn] });
  }

  /** The content route signs GET URLs, which act with its role's rights. */
  readStatement(): iam.PolicyStatement {
    return new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.objectsArn] });
  }
}
