/**
 * The edge in front of the HTTP API: a CloudFront distribution with an AWS WAF web ACL.
 *
 * An HTTP API cannot take a WAF web ACL; a CloudFront distribution can, and then the managed
 * rule groups and the per-IP rate rules refuse floods at the edge, before API Gateway, Lambda
 * (1024 MB for Argon2id) or DynamoDB are paid for. The web ACL of a distribution has scope
 * CLOUDFRONT, which AWS WAF keeps in us-east-1 only, so it lives in a small stack of its own
 * there (`EdgeFirewallStack`); its ARN reaches the tenant's stack through CDK's
 * cross-region references (an SSM parameter in the tenant's region, written by the us-east-1
 * stack), because CloudFormation exports do not cross regions. A separate stack rather than
 * the whole distribution in us-east-1: the distribution, its origin secret and the API stay
 * with the rest of the tenant environment.
 *
 * The client address: behind CloudFront, API Gateway's source address is an edge server.
 * A CloudFront Function writes the viewer's address into `x-tessera-viewer-address`
 * (replacing any value a viewer sent), and CloudFront adds `x-tessera-origin-verify` with a
 * secret; the functions believe the first only with the second (`shared/http/client-address.ts`).
 * Why a function and not the `CloudFront-Viewer-Address` header: CloudFront headers can only be
 * added with an origin request policy that lists headers one by one or forwards the viewer's
 * Host too; the API needs every viewer header but Host (API Gateway routes on its own Host).
 */
import { Duration, Fn, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../shared/http/client-address';
import { STRICT_TRANSPORT_SECURITY } from '../console/site-headers';
import { ConsoleSite, responseHeadersPolicyOf } from './console-site';
import type { CustomDomain, StackSettings } from './stack-settings';

/**
 * The paths the API serves (API.md: every route is under /v1/), and `/v1` itself, which the
 * local host also leaves to the API (a 404 of the API's, not the console's page); the default
 * behaviour serves the web console (infra/console-site.ts).
 */
export const API_PATH_PATTERNS = ['/v1', '/v1/*'] as const;
/** WAF rate-based rules count over this window (seconds); the limits in settings are per window. */
export const RATE_WINDOW_SECONDS = 300;
/** What the rate rules guard, by URI path prefix, with the settings' key of their limit. */
export const RATE_LIMITED_PREFIXES = [
  { name: 'auth', prefix: '/v1/auth/' },
  { name: 'mfa', prefix: '/v1/mfa/' },
] as const satisfies readonly { name: keyof StackSettings['edgeRateLimits']; prefix: string }[];

/**
 * AWS managed rule groups, cheapest first. `SizeRestrictions_BODY` of the common rule set blocks
 * bodies over 8 KB, but the contract takes bodies up to 64 KiB (a SAML response POSTed to the
 * assertion consumer is often larger than 8 KB, and so can be a connection's configuration):
 * it only counts, and the functions refuse what is over 64 KiB with a 413 problem+json.
 */
export const MANAGED_RULE_GROUPS = [
  { name: 'AWSManagedRulesAmazonIpReputationList', countOnly: [] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] },
  { name: 'AWSManagedRulesCommonRuleSet', countOnly: ['SizeRestrictions_BODY'] },
] as const;

/** A 429 problem body like the functions' own (WAF can only say `application/json`). */
const RATE_LIMITED_BODY = JSON.stringify({
  type: 'about:blank',
  title: 'Too Many Requests',
  status: 429,
  code: 'rate_limited',
  detail: `Too many requests from this address; try again in a few minutes.`,
});

export interface EdgeFirewallProps {
  /** The tenant environment's name (`acme-prod`). */
  tenantEnv: string;
  rateLimits: StackSettings['edgeRateLimits'];
}

/** The web ACL (scope CLOUDFRONT): managed rule groups and per-IP rate rules on sign-in and MFA. */
export class EdgeFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    const metric = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: `tessera-${props.tenantEnv}-${name}` });
    const rateRules: wafv2.CfnWebACL.RuleProperty[] = RATE_LIMITED_PREFIXES.map(({ name, prefix }, index) => ({
      name: `rate-${name}`,
      priority: index,
      action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rate-limited', responseHeaders: [{ name: 'retry-after', value: String(RATE_WINDOW_SECONDS) }] } } },
      statement: {
        rateBasedStatement: {
          limit: props.rateLimits[name],
          evaluationWindowSec: RATE_WINDOW_SECONDS,
          // Behind CloudFront the web ACL sees the viewer's own address.
          aggregateKeyType: 'IP',
          scopeDownStatement: {
            byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: 'STARTS_WITH', searchString: prefix, textTransformations: [{ priority: 0, type: 'NONE' }] },
          },
        },
      },
      visibilityConfig: metric(`rate-${name}`),
    }));
    const managedRules: wafv2.CfnWebACL.RuleProperty[] = MANAGED_RULE_GROUPS.map((group, index) => ({
      name: group.name,
      priority: 10 + index,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name: group.name,
          ...(group.countOnly.length ? { ruleActionOverrides: group.countOnly.map((rule) => ({ name: rule, actionToUse: { count: {} } })) } : {}),
        },
      },
      visibilityConfig: metric(group.name),
    }));
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `tessera-${props.tenantEnv}`,
      description: `Tessera ${props.tenantEnv}: managed rule groups and per-IP rate limits on sign-in and MFA`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      customResponseBodies: { 'rate-limited': { contentType: 'APPLICATION_JSON', content: RATE_LIMITED_BODY } },
      rules: [...rateRules, ...managedRules],
      visibilityConfig: metric('web-acl'),
    });
  }
}

/** The us-east-1 stack that holds the web ACL (see the header comment). */
export class EdgeFirewallStack extends Stack {
  readonly firewall: EdgeFirewall;

  constructor(scope: Construct, id: string, props: StackProps & EdgeFirewallProps) {
    super(scope, id, props);
    this.firewall = new EdgeFirewall(this, 'Firewall', props);
  }
}

/** A viewer-request function: the viewer's address in the header the functions read, whatever the viewer sent in it. */
export const VIEWER_ADDRESS_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

export interface ApiEdgeProps {
  env: string;
  /** The API's host name as CloudFront reaches it: the custom domain, or the execute-api host. */
  originDomainName: string;
  originVerifySecret: secretsmanager.ISecret;
  webAclArn: string;
  edgeDomain: CustomDomain | undefined;
  /** Origins besides its own the console may fetch from (ConsoleSite). */
  consoleConnectSources?: readonly string[];
}

export class ApiEdge extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly logBucket: s3.Bucket;
  /** Writes the viewer's address for the API (its behaviour only). */
  readonly viewerAddress: cloudfront.Function;
  /** The web console, at the default behaviour. */
  readonly console: ConsoleSite;
  /** What the distribution adds to the API's answers: HSTS (the handlers set the rest). */
  readonly apiResponseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  /** `https://` and the distribution's (or the edge domain's) host name. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiEdgeProps) {
    super(scope, id);
    this.logBucket = new s3.Bucket(this, 'AccessLogs', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // CloudFront's standard logs are delivered with an ACL grant to the log-delivery account.
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'It is the access-log bucket of the distribution: logging its own accesses into another bucket would have no end.',
    });
    this.console = new ConsoleSite(this, 'Console', { env: props.env, logBucket: this.logBucket, connectSources: props.consoleConnectSources });
    const origin = new origins.HttpOrigin(props.originDomainName, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // A dynamic reference: the template holds the secret's ARN, CloudFormation puts the value.
      customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originVerifySecret.secretValue.unsafeUnwrap() },
    });
    const viewerAddress = (this.viewerAddress = new cloudfront.Function(this, 'ViewerAddress', {
      code: cloudfront.FunctionCode.fromInline(VIEWER_ADDRESS_FUNCTION_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: `Tessera ${props.env}: the viewer's address for the API`,
    }));
    this.apiResponseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: `Tessera ${props.env}: HSTS on the API's answers`,
      ...responseHeadersPolicyOf({ 'strict-transport-security': STRICT_TRANSPORT_SECURITY }),
    });
    const apiBehavior: cloudfront.BehaviorOptions = {
      origin,
      responseHeadersPolicy: this.apiResponseHeadersPolicy,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      // Every answer is per caller (and says no-store): nothing is cached.
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // Every viewer header, query string and cookie, but Host (API Gateway answers to its own).
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: false,
      functionAssociations: [{ function: viewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    };
    const certificate = props.edgeDomain ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.edgeDomain.certificateArn) : undefined;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Tessera ${props.env}`,
      // The web console; only `/v1` and `/v1/*` reach the API (API.md: it serves nothing outside /v1).
      defaultBehavior: this.console.behavior,
      additionalBehaviors: Object.fromEntries(API_PATH_PATTERNS.map((pattern) => [pattern, apiBehavior])),
      webAclId: props.webAclArn,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(props.edgeDomain && certificate ? { domainNames: [props.edgeDomain.name], certificate, minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 } : {}),
    });
    if (!props.edgeDomain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason: 'Without an edge domain the distribution answers on its cloudfront.net name, whose certificate CloudFront owns and whose minimum TLS version cannot be set; with `edgeDomainName` it is TLSv1.2_2021.',
      });
    }
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The API serves every country its tenants sign in from; there is no geography to restrict.',
    });
    this.console.publish(this.distribution);
    this.url = `https://${props.edgeDomain ? props.edgeDomain.name : this.distribution.distributionDomainName}`;
  }
}

/** The execute-api host name of an HTTP API (`https://<id>.execute-api.<region>.amazonaws.com` → its host). */
export function hostOfEndpoint(endpoint: string): string {
  return Fn.select(2, Fn.split('/', endpoint));
}
