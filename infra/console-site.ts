/**
 * The web console in AWS: its build in a private S3 bucket that only the distribution reads
 * (Origin Access Control), served by the distribution's default behaviour with the console's
 * own response headers (console/site-headers.ts, the map the local host sends too), and
 * published by `cdk deploy` (two BucketDeployments of the build made at synth).
 *
 * Client-side paths (`/reset-password?token=…`, `/connections/abc`) are rewritten to
 * `/index.html` by a viewer-request function on this behaviour only. Not by the
 * distribution's custom error responses: those apply to every behaviour and would turn the
 * API's 403 and 404 problem+json answers into the console's page.
 */
import { DefaultStackSynthesizer, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { HASHED_ASSETS_PREFIX, HASHED_ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL, consoleSecurityHeadersFor } from '../console/site-headers';
import { consoleBuildSource } from './console-asset';

/** The page every client-side path is answered with. */
export const CONSOLE_PAGE = '/index.html';

/**
 * A viewer-request function: a path whose last segment has no extension is a page of the
 * console, answered with index.html (the query string stays for the app); anything else is a
 * file of the build. Locally infra/local/console-site.ts draws the same line.
 */
export const SPA_REWRITE_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  var name = request.uri.slice(request.uri.lastIndexOf('/') + 1);
  if (name.indexOf('.') === -1) request.uri = '${CONSOLE_PAGE}';
  return request;
}`;

type SecurityHeaders = cloudfront.ResponseSecurityHeadersBehavior;
type Override = { override: boolean };

/**
 * The header map as a response headers policy. CloudFront takes the security headers it knows
 * only in their typed fields (a custom header of those names is refused), the rest as custom
 * headers. Every value overrides what the origin sends.
 */
export function responseHeadersPolicyOf(headers: Readonly<Record<string, string>>): Pick<cloudfront.ResponseHeadersPolicyProps, 'securityHeadersBehavior' | 'customHeadersBehavior'> {
  const override: Override = { override: true };
  const security: { -readonly [K in keyof SecurityHeaders]: SecurityHeaders[K] } = {};
  const custom: cloudfront.ResponseCustomHeader[] = [];
  for (const [name, value] of Object.entries(headers)) {
    switch (name) {
      case 'content-security-policy':
        security.contentSecurityPolicy = { contentSecurityPolicy: value, ...override };
        break;
      case 'referrer-policy':
        security.referrerPolicy = { referrerPolicy: oneOf(cloudfront.HeadersReferrerPolicy, name, value), ...override };
        break;
      case 'x-frame-options':
        security.frameOptions = { frameOption: oneOf(cloudfront.HeadersFrameOption, name, value), ...override };
        break;
      case 'x-content-type-options':
        // The only value the header has; CloudFront's field takes none.
        if (value !== 'nosniff') throw new Error(`x-content-type-options: CloudFront sends only nosniff, not ${value}`);
        security.contentTypeOptions = override;
        break;
      case 'strict-transport-security':
        security.strictTransportSecurity = { ...strictTransportSecurityOf(value), ...override };
        break;
      case 'x-xss-protection':
        throw new Error(`${name}: map it to CloudFront's field before using it`);
      default:
        custom.push({ header: name, value, ...override });
    }
  }
  return { securityHeadersBehavior: security, ...(custom.length > 0 ? { customHeadersBehavior: { customHeaders: custom } } : {}) };
}

/**
 * CloudFront builds the header from typed fields, so the value is read back into them; a
 * directive it cannot express fails the synth rather than being dropped.
 */
function strictTransportSecurityOf(value: string): Omit<cloudfront.ResponseHeadersStrictTransportSecurity, 'override'> {
  const directives = value.split(';').map((d) => d.trim().toLowerCase()).filter((d) => d !== '');
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)).find((m) => m !== null);
  const unknown = directives.filter((d) => !/^max-age=\d+$/.test(d) && d !== 'includesubdomains' && d !== 'preload');
  if (!maxAge || unknown.length > 0) throw new Error(`strict-transport-security: CloudFront cannot send ${value}`);
  return {
    accessControlMaxAge: Duration.seconds(Number(maxAge[1])),
    includeSubdomains: directives.includes('includesubdomains'),
    preload: directives.includes('preload'),
  };
}

function oneOf<T extends string>(values: Record<string, T>, name: string, value: string): T {
  const found = Object.values(values).find((v) => v === value);
  if (found === undefined) throw new Error(`${name}: CloudFront has no value ${value}`);
  return found;
}

export interface ConsoleSiteProps {
  env: string;
  /** Origins besides its own the console may fetch from (the exports bucket's signed URLs). */
  connectSources?: readonly string[];
  /** Where the bucket's server access logs go (the distribution's log bucket). */
  logBucket: s3.IBucket;
}

export class ConsoleSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  readonly spaRewrite: cloudfront.Function;
  /** The distribution's default behaviour. */
  readonly behavior: cloudfront.BehaviorOptions;
  /** The role of CDK's deployment function (`publish`), whose grants are CDK's own. */
  deploymentRole?: iam.IRole;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // SSE-S3: CloudFront's OAC reads it with no key policy to keep (SSE-KMS would need one).
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Not versioned: every object is a build of a commit, restored by deploying it again, and
      // hashed assets are never overwritten (their deployment keeps the old ones).
      versioned: false,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'console-bucket/',
    });
    this.spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_FUNCTION_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: `Tessera ${props.env}: the console's page for its client-side paths`,
    });
    this.responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
      comment: `Tessera ${props.env}: the console's CSP and security headers`,
      ...responseHeadersPolicyOf(consoleSecurityHeadersFor(props.connectSources ?? [])),
    });
    this.behavior = {
      // LIST as well as READ: without s3:ListBucket, S3 answers a key that is not there with
      // 403 AccessDenied (it will not say whether the key exists); with it, a missing asset is
      // the 404 it is. The bucket holds only the public build, so its key names hide nothing.
      origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, { originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST] }),
      // A browser typing the host name gets the HTTPS page (the API refuses plain HTTP instead).
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      // Cached by the objects' Cache-Control, set at deploy (`publish`); no query string or
      // cookie in the key: the files do not vary with them.
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: this.responseHeadersPolicy,
      compress: true,
      functionAssociations: [{ function: this.spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    };
  }

  /**
   * The build deployed to the bucket on `cdk deploy`: the hashed assets first, long-cached and
   * never pruned (a page still cached in a browser names the previous ones), then the rest
   * (index.html) revalidated on each load, with index.html invalidated at the edge; the order
   * means a new index.html never names an asset that is not there yet.
   */
  publish(distribution: cloudfront.IDistribution): void {
    const build = consoleBuildSource();
    const assetsPattern = `${HASHED_ASSETS_PREFIX}*`;
    const assets = new s3deploy.BucketDeployment(this, 'Assets', {
      sources: [build],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: [assetsPattern],
      cacheControl: [s3deploy.CacheControl.fromString(HASHED_ASSET_CACHE_CONTROL)],
      prune: false,
    });
    const pages = new s3deploy.BucketDeployment(this, 'Pages', {
      sources: [build],
      destinationBucket: this.bucket,
      // Excluded files are also kept from pruning: the assets stay.
      exclude: [assetsPattern],
      cacheControl: [s3deploy.CacheControl.fromString(PAGE_CACHE_CONTROL)],
      distribution,
      distributionPaths: [CONSOLE_PAGE],
    });
    pages.node.addDependency(assets);
    this.deploymentRole = assets.handlerRole;
    acknowledgeDeploymentHandler(assets, this.bucket);
  }
}

/**
 * CDK's deployment function (one per stack, shared by both deployments) runs only during
 * `cdk deploy`; its code, runtime and policy are CDK's, not this project's to change.
 */
function acknowledgeDeploymentHandler(deployment: s3deploy.BucketDeployment, bucket: s3.Bucket): void {
  const stack = Stack.of(deployment);
  const handler = deployment.handlerRole.node.scope!;
  const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
  const synthesizer = stack.synthesizer instanceof DefaultStackSynthesizer ? stack.synthesizer : undefined;
  // The CDK assets bucket the deployment reads the build from, as cdk-nag names it.
  const assetsBucket = DefaultStackSynthesizer.DEFAULT_FILE_ASSETS_BUCKET_NAME.replace('${Qualifier}', synthesizer?.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER)
    .replace('${AWS::AccountId}', shown(stack.account, 'AWS::AccountId'))
    .replace('${AWS::Region}', shown(stack.region, 'AWS::Region'));
  const consoleBucket = stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
  const runtimeReason = 'CDK\'s BucketDeployment function: its runtime is chosen by the aws-cdk-lib version, which the lock file pins; it runs only while `cdk deploy` copies the console.';
  const wildcardReason = 'CDK\'s BucketDeployment grants: reading the build\'s zip from the CDK assets bucket, and syncing (put, delete, list) the objects of the console\'s bucket, whose keys are the build\'s files; the invalidation actions take no narrower resource than "*".';
  Validations.of(handler).acknowledge(
    { id: 'AwsSolutions-L1', reason: runtimeReason },
    { id: 'Serverless-LambdaLatestVersion', reason: runtimeReason },
    { id: 'Serverless-LambdaDLQ', reason: 'CloudFormation invokes it synchronously as a custom resource: a failure fails the deploy, which reports it.' },
    { id: 'Serverless-LambdaTracing', reason: 'A deploy-time custom resource: CloudFormation\'s events and its log group say what it did; there is no request to trace.' },
    { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason: 'CDK attaches it to the deployment function: writing its own logs, nothing else.' },
    ...['Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:DeleteObject*', 'Action::s3:Abort*', 'Resource::*', `Resource::arn:<AWS::Partition>:s3:::${assetsBucket}/*`, `Resource::<${consoleBucket}.Arn>/*`].map((finding) => ({
      id: `AwsSolutions-IAM5[${finding}]`,
      reason: wildcardReason,
    })),
  );
}
