/**
 * CDK assertions on the web console in AWS (infra/console-site.ts): the distribution's default
 * behaviour reads the private bucket through Origin Access Control, client-side paths are
 * rewritten to index.html by a viewer-request function, the response headers policy carries
 * the very headers the local host sends (console/site-headers.ts), and `cdk deploy` publishes
 * the build with long-cached hashed assets and a revalidated, invalidated index.html.
 */
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { HASHED_ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL, consoleCsp, consoleSecurityHeaders } from '../../console/site-headers';
import { API_PATH_PATTERNS } from '../../infra/edge';
import { SPA_REWRITE_FUNCTION_CODE, responseHeadersPolicyOf } from '../../infra/console-site';
import type { TesseraStack } from '../../infra/tessera-stack';
import { logicalIdOf, synthStack, type Resource } from '../support/stack-synth';

type Json = Record<string, unknown>;

/** The ID of the AWS managed CloudFront policy CachingOptimized. */
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';

describe('web console in AWS', () => {
  let stack: TesseraStack;
  let resources: Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const distributionConfig = () => ofType('AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig as Json;
  const bucketId = () => logicalIdOf(stack.edge.console.bucket);
  const distributionId = () => logicalIdOf(stack.edge.distribution);

  beforeAll(() => {
    const synthed = synthStack();
    stack = synthed.stack;
    resources = synthed.template.toJSON().Resources as Record<string, Resource>;
  });

  describe('default behaviour', () => {
    it('reads the console\'s bucket through Origin Access Control, cached, with the console\'s headers and page rewrite', () => {
      const config = distributionConfig();
      const behavior = config.DefaultCacheBehavior as Json;
      const origin = (config.Origins as Json[]).find((o) => o.Id === behavior.TargetOriginId)!;
      expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [bucketId(), 'RegionalDomainName'] });
      // OAC, not a legacy origin access identity.
      expect(origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
      const oacId = (origin.OriginAccessControlId as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      expect(resources[oacId]!.Properties!.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
      expect(behavior).toMatchObject({
        CachePolicyId: CACHING_OPTIMIZED,
        ResponseHeadersPolicyId: { Ref: logicalIdOf(stack.edge.console.responseHeadersPolicy) },
        ViewerProtocolPolicy: 'redirect-to-https',
        AllowedMethods: ['GET', 'HEAD'],
        Compress: true,
        FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalIdOf(stack.edge.console.spaRewrite), 'FunctionARN'] } }],
      });
      expect(behavior.OriginRequestPolicyId).toBeUndefined();
      // Only the API's paths go elsewhere; no custom error response would turn an API 403/404 into the page.
      expect((config.CacheBehaviors as Json[]).map((b) => b.PathPattern)).toEqual([...API_PATH_PATTERNS]);
      expect(config.CustomErrorResponses).toBeUndefined();
    });

    it('answers client-side paths with index.html and files as themselves', () => {
      const handler = runInNewContext(`${SPA_REWRITE_FUNCTION_CODE}; handler`) as (event: Json) => { uri: string; querystring: Json };
      const uriFor = (uri: string) => handler({ request: { uri, querystring: {}, headers: {} } }).uri;
      expect(uriFor('/connections/x')).toBe('/index.html');
      expect(uriFor('/reset-password')).toBe('/index.html');
      expect(uriFor('/')).toBe('/index.html');
      expect(uriFor('/assets/app-1234.js')).toBe('/assets/app-1234.js');
      expect(uriFor('/favicon.svg')).toBe('/favicon.svg');
      // The query string (the reset token) stays for the app.
      expect(handler({ request: { uri: '/reset-password', querystring: { token: { value: 'abc' } }, headers: {} } }).querystring).toEqual({ token: { value: 'abc' } });
      const fn = resources[logicalIdOf(stack.edge.console.spaRewrite)]!;
      expect(fn.Properties).toMatchObject({ FunctionCode: SPA_REWRITE_FUNCTION_CODE, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
    });

    it('sends exactly the headers the local host sends, overriding the origin\'s', () => {
      const policy = resources[logicalIdOf(stack.edge.console.responseHeadersPolicy)]!.Properties!.ResponseHeadersPolicyConfig as {
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: string; Override: boolean };
          ReferrerPolicy: { ReferrerPolicy: string; Override: boolean };
          FrameOptions: { FrameOption: string; Override: boolean };
          ContentTypeOptions: { Override: boolean };
          StrictTransportSecurity: { AccessControlMaxAgeSec: number; IncludeSubdomains: boolean; Preload: boolean; Override: boolean };
        } & Json;
        CustomHeadersConfig: { Items: { Header: string; Value: string; Override: boolean }[] };
      };
      const security = policy.SecurityHeadersConfig;
      // Back from CloudFront's fields to header names: the map the browser receives.
      const sent: Record<string, string> = {
        'content-security-policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
        'referrer-policy': security.ReferrerPolicy.ReferrerPolicy,
        'x-frame-options': security.FrameOptions.FrameOption,
        'x-content-type-options': 'nosniff',
        'strict-transport-security': [
          `max-age=${security.StrictTransportSecurity.AccessControlMaxAgeSec}`,
          ...(security.StrictTransportSecurity.IncludeSubdomains ? ['includeSubDomains'] : []),
          ...(security.StrictTransportSecurity.Preload ? ['preload'] : []),
        ].join('; '),
        ...Object.fromEntries(policy.CustomHeadersConfig.Items.map((h) => [h.Header, h.Value])),
      };
      // The local host's map, with one more origin the console may fetch from: the exports
      // bucket its downloads are redirected to (the CSP is a template string with its region).
      const csp = sent['content-security-policy'] as unknown as string | { 'Fn::Join': [string, unknown[]] };
      const cspText = typeof csp === 'string' ? csp : csp['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : '<token>')).join('');
      expect(cspText).toBe(consoleCsp(['https://tessera-test-exports-<token>.s3.<token>.<token>']));
      expect({ ...sent, 'content-security-policy': '' }).toEqual({ ...consoleSecurityHeaders, 'content-security-policy': '' });
      expect(Object.keys(security).sort()).toEqual(['ContentSecurityPolicy', 'ContentTypeOptions', 'FrameOptions', 'ReferrerPolicy', 'StrictTransportSecurity']);
      for (const header of [...Object.values(security), ...policy.CustomHeadersConfig.Items] as { Override: boolean }[]) expect(header.Override).toBe(true);
    });

    it('refuses a header value CloudFront cannot send rather than dropping it', () => {
      expect(() => responseHeadersPolicyOf({ 'x-frame-options': 'ALLOW-FROM https://x.example' })).toThrow(/x-frame-options/);
      expect(() => responseHeadersPolicyOf({ 'referrer-policy': 'nope' })).toThrow(/referrer-policy/);
      expect(() => responseHeadersPolicyOf({ 'strict-transport-security': 'max-age=1; report-uri=x' })).toThrow(/strict-transport-security/);
      expect(() => responseHeadersPolicyOf({ 'strict-transport-security': 'includeSubDomains' })).toThrow(/strict-transport-security/);
      expect(responseHeadersPolicyOf({ 'strict-transport-security': 'max-age=300; includeSubDomains; preload' }).securityHeadersBehavior!.strictTransportSecurity).toMatchObject({ includeSubdomains: true, preload: true, override: true });
    });
  });

  describe('bucket', () => {
    it('is private, encrypted, TLS-only and logs its accesses', () => {
      const bucket = resources[bucketId()]!;
      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(stack.edge.logBucket) }, LogFilePrefix: 'console-bucket/' },
      });
      expect(bucket.Properties!.WebsiteConfiguration).toBeUndefined();
    });

    it('lets only the distribution read and list it (CloudFront with its SourceArn; listing makes a missing asset a 404, not a 403), and refuses plain HTTP', () => {
      const policies = ofType('AWS::S3::BucketPolicy').filter(([, p]) => JSON.stringify(p.Properties!.Bucket) === JSON.stringify({ Ref: bucketId() }));
      expect(policies).toHaveLength(1);
      const statements = (policies[0]![1].Properties!.PolicyDocument as { Statement: Json[] }).Statement;
      const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId(), 'Arn'] }, '/*']] };
      expect(statements.filter((s) => s.Effect === 'Allow')).toEqual([
        {
          Effect: 'Allow',
          Principal: { Service: 'cloudfront.amazonaws.com' },
          Action: ['s3:GetObject', 's3:ListBucket'],
          Resource: [objects, { 'Fn::GetAtt': [bucketId(), 'Arn'] }],
          Condition: { StringEquals: { 'AWS:SourceArn': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: distributionId() }]] } } },
        },
      ]);
      expect(statements.filter((s) => s.Effect === 'Deny')).toEqual([
        { Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:*', Resource: [{ 'Fn::GetAtt': [bucketId(), 'Arn'] }, objects], Condition: { Bool: { 'aws:SecureTransport': 'false' } } },
      ]);
    });
  });

  describe('publishing on cdk deploy', () => {
    const deployments = () => ofType('Custom::CDKBucketDeployment');

    it('copies the hashed assets long-cached and never pruned, then the rest revalidated with index.html invalidated', () => {
      expect(deployments()).toHaveLength(2);
      const idOf = (name: string) => logicalIdOf(stack.edge.console.node.findChild(name).node.findChild('CustomResource'));
      const [assetsId, pagesId] = [idOf('Assets'), idOf('Pages')];
      const [assets, pages] = [resources[assetsId]!, resources[pagesId]!];
      expect([assets.Type, pages.Type]).toEqual(['Custom::CDKBucketDeployment', 'Custom::CDKBucketDeployment']);
      expect(assets.Properties).toMatchObject({ DestinationBucketName: { Ref: bucketId() }, Exclude: ['*'], Include: ['assets/*'], Prune: false, SystemMetadata: { 'cache-control': HASHED_ASSET_CACHE_CONTROL } });
      expect(assets.Properties!.DistributionId).toBeUndefined();
      expect(pages.Properties).toMatchObject({
        DestinationBucketName: { Ref: bucketId() },
        Exclude: ['assets/*'],
        Prune: true,
        SystemMetadata: { 'cache-control': PAGE_CACHE_CONTROL },
        DistributionId: { Ref: distributionId() },
        DistributionPaths: ['/index.html'],
      });
      expect(pages.Properties!.Include).toBeUndefined();
      // A new index.html never names assets that are not there yet.
      expect(pages.DependsOn).toContain(assetsId);
      // Both copy the same build.
      expect(pages.Properties!.SourceObjectKeys).toEqual(assets.Properties!.SourceObjectKeys);
    });
  });
});
