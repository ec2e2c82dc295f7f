/**
 * CDK assertions on the edge: the distribution and its WAF web ACL (associated across regions),
 * the managed rule groups and the rate rules with their scope-down statements, the origin
 * secret kept out of the template, the viewer-address function, per-route throttles, reserved
 * concurrency for Argon2id, and the custom domains that turn off the execute-api endpoint.
 */
import { runInNewContext } from 'node:vm';
import { NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATH_PATTERNS, MANAGED_RULE_GROUPS, RATE_WINDOW_SECONDS, VIEWER_ADDRESS_FUNCTION_CODE } from '../../infra/edge';
import { passwordHashingHandlers } from '../../infra/handler-capabilities';
import { defaultStackSettings } from '../../infra/stack-settings';
import type { TesseraStack } from '../../infra/tessera-stack';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/http/client-address';
import { logicalIdOf, synthStack, type Resource } from '../support/stack-synth';

type Json = Record<string, unknown>;
interface WafRule { Name: string; Priority: number; Action?: Json; OverrideAction?: Json; Statement: Json; VisibilityConfig: Json }

/** The IDs of the AWS managed CloudFront policies (CachingDisabled, AllViewerExceptHostHeader). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const CERTIFICATE = (region: string) => `arn:aws:acm:${region}:123456789012:certificate/0f6e8a2c-1234-4abc-8def-0123456789ab`;

describe('edge', () => {
  let stack: TesseraStack;
  let resources: Record<string, Resource>;
  let edgeResources: Record<string, Resource>;
  let edgeRegion: string;
  const ofType = (type: string, from = resources) => Object.entries(from).filter(([, r]) => r.Type === type);
  const distributionConfig = (from: Record<string, Resource>) => (ofType('AWS::CloudFront::Distribution', from)[0]![1].Properties!.DistributionConfig as Json);
  /** The API's origin (the console's is the S3 bucket). */
  const apiOrigin = (from: Record<string, Resource>) => (distributionConfig(from).Origins as Json[]).find((o) => 'CustomOriginConfig' in o)!;
  const webAcl = () => ofType('AWS::WAFv2::WebACL', edgeResources)[0]!;
  const rules = () => webAcl()[1].Properties!.Rules as WafRule[];

  beforeAll(() => {
    const synthed = synthStack();
    stack = synthed.stack;
    resources = synthed.template.toJSON().Resources as Record<string, Resource>;
    edgeResources = Template.fromStack(synthed.edgeFirewall).toJSON().Resources as Record<string, Resource>;
    edgeRegion = synthed.edgeFirewall.region;
  });

  describe('WAF', () => {
    it('keeps the CLOUDFRONT-scope web ACL in us-east-1 and associates it with the distribution across regions', () => {
      expect(edgeRegion).toBe('us-east-1');
      expect(stack.region).not.toBe('us-east-1');
      const [aclId, acl] = webAcl();
      expect(acl.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
      // The distribution's WebACLId is read from the parameter the us-east-1 stack writes with the ACL's ARN.
      const webAclId = distributionConfig(resources).WebACLId as { 'Fn::GetAtt': [string, string] };
      const [readerId, exportName] = webAclId['Fn::GetAtt'];
      expect(resources[readerId]!.Type).toBe('Custom::CrossRegionExportReader');
      const writers = ofType('Custom::CrossRegionExportWriter', edgeResources);
      expect(writers).toHaveLength(1);
      const written = (writers[0]![1].Properties!.WriterProps as { region: string; exports: Record<string, unknown> });
      expect(written.region).toBe(stack.region);
      expect(written.exports[exportName]).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    });

    it('runs the AWS managed rule groups, only counting the 8 KB body rule (the contract takes 64 KiB bodies)', () => {
      const managed = rules().filter((r) => 'ManagedRuleGroupStatement' in r.Statement);
      expect(managed.map((r) => (r.Statement.ManagedRuleGroupStatement as Json).Name).sort()).toEqual(['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet']);
      expect(managed.map((r) => r.Name).sort()).toEqual(MANAGED_RULE_GROUPS.map((g) => g.name).sort());
      for (const rule of managed) {
        expect(rule.OverrideAction).toEqual({ None: {} });
        expect(rule.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS' });
        expect(rule.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
      }
      const common = managed.find((r) => r.Name === 'AWSManagedRulesCommonRuleSet')!.Statement.ManagedRuleGroupStatement as Json;
      expect(common.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
    });

    it('limits each client IP on /v1/auth/* and /v1/mfa/* with rate rules scoped down by path, answering 429', () => {
      const defaults = defaultStackSettings.edgeRateLimits;
      const rate = rules().filter((r) => 'RateBasedStatement' in r.Statement);
      expect(rate).toHaveLength(2);
      const byPrefix = Object.fromEntries(rate.map((r) => {
        const statement = r.Statement.RateBasedStatement as { Limit: number; AggregateKeyType: string; EvaluationWindowSec: number; ScopeDownStatement: { ByteMatchStatement: Json } };
        expect(statement).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: RATE_WINDOW_SECONDS });
        expect(statement.ScopeDownStatement.ByteMatchStatement).toMatchObject({ FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH' });
        expect(r.Action).toMatchObject({ Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'rate-limited' } } });
        return [statement.ScopeDownStatement.ByteMatchStatement.SearchString as string, statement.Limit];
      }));
      expect(byPrefix).toEqual({ '/v1/auth/': defaults.auth, '/v1/mfa/': defaults.mfa });
      // Rate rules run before the managed groups.
      expect(Math.max(...rate.map((r) => r.Priority))).toBeLessThan(Math.min(...rules().filter((r) => !('RateBasedStatement' in r.Statement)).map((r) => r.Priority)));
      const body = JSON.parse((webAcl()[1].Properties!.CustomResponseBodies as Record<string, { Content: string }>)['rate-limited']!.Content) as Json;
      expect(body).toMatchObject({ status: 429, code: 'rate_limited' });
    });

    it('takes the rate limits from settings', () => {
      const { edgeFirewall } = synthStack({ edgeRateLimits: { auth: 1234, mfa: 56 } });
      const limits = (Object.values(Template.fromStack(edgeFirewall).findResources('AWS::WAFv2::WebACL'))[0] as Resource).Properties!.Rules as WafRule[];
      expect(limits.filter((r) => 'RateBasedStatement' in r.Statement).map((r) => (r.Statement.RateBasedStatement as { Limit: number }).Limit).sort((a, b) => a - b)).toEqual([56, 1234]);
    });
  });

  describe('distribution', () => {
    it('serves the API at /v1 and under /v1/* uncached, with every viewer header but Host, HTTPS only, HSTS added (the default is the console\'s)', () => {
      const config = distributionConfig(resources);
      const behaviors = config.CacheBehaviors as Json[];
      expect(behaviors.map((b) => b.PathPattern)).toEqual([...API_PATH_PATTERNS]);
      const origin = apiOrigin(resources);
      for (const behavior of behaviors) expect(behavior).toMatchObject({
        ResponseHeadersPolicyId: { Ref: logicalIdOf(stack.edge.apiResponseHeadersPolicy) },
        TargetOriginId: origin.Id,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalIdOf(stack.edge.viewerAddress), 'FunctionARN'] } }],
      });
      expect((config.DefaultCacheBehavior as Json).TargetOriginId).not.toBe(origin.Id);
      // Only HSTS: the handlers set their own content type, caching and nosniff.
      expect(resources[logicalIdOf(stack.edge.apiResponseHeadersPolicy)]!.Properties!.ResponseHeadersPolicyConfig).toMatchObject({
        SecurityHeadersConfig: { StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: false, Preload: false, Override: true } },
      });
      expect(Object.keys((resources[logicalIdOf(stack.edge.apiResponseHeadersPolicy)]!.Properties!.ResponseHeadersPolicyConfig as Json).SecurityHeadersConfig as Json)).toEqual(['StrictTransportSecurity']);
      expect(origin).toMatchObject({ CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] } });
      // The origin is the API's execute-api host when there is no custom domain.
      expect(JSON.stringify(origin.DomainName)).toContain(logicalIdOf(stack.api));
      expect(config.Logging).toMatchObject({ Bucket: { 'Fn::GetAtt': [logicalIdOf(stack.edge.logBucket), 'RegionalDomainName'] } });
    });

    it('sends the origin secret as a dynamic reference, never its value: to CloudFront and to every function', () => {
      const secretRef = { Ref: logicalIdOf(stack.originVerifySecret) };
      const dynamicReference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', secretRef, ':SecretString:::}}']] };
      const origin = apiOrigin(resources);
      expect(origin.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: dynamicReference }]);
      for (const [handler, fn] of stack.functions) {
        expect((resources[logicalIdOf(fn)]!.Properties!.Environment as { Variables: Json }).Variables.TESSERA_ORIGIN_VERIFY_SECRET, handler).toEqual(dynamicReference);
      }
      // The reference is built inside each nested stack: the value never travels as a stack parameter.
      const parentResources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
      // The functions' stacks (the alarms' stack runs no function).
      const nestedStacks = stack.node.children.filter((c): c is NestedStack => c instanceof NestedStack && c !== stack.observability);
      expect(nestedStacks.length).toBeGreaterThan(0);
      for (const nested of nestedStacks) {
        const passed = parentResources[stack.getLogicalId(nested.nestedStackResource!)]!.Properties!.Parameters;
        expect(JSON.stringify(passed)).toContain('OriginVerifySecret');
        expect(JSON.stringify(passed)).not.toContain('{{resolve');
      }
      const secret = resources[logicalIdOf(stack.originVerifySecret)]!;
      expect(secret.Properties).toMatchObject({ GenerateSecretString: { PasswordLength: 48, ExcludePunctuation: true } });
      expect(secret.Properties!.SecretString).toBeUndefined();
    });

    it('writes the viewer\'s address into the header the functions read, over whatever the viewer sent', () => {
      const handler = runInNewContext(`${VIEWER_ADDRESS_FUNCTION_CODE}; handler`) as (event: Json) => { headers: Record<string, { value: string }> };
      const request = handler({ viewer: { ip: '2001:db8::5' }, request: { headers: { [VIEWER_ADDRESS_HEADER]: { value: '10.0.0.1' }, accept: { value: '*/*' } } } });
      expect(request.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '2001:db8::5' });
      expect(request.headers.accept).toEqual({ value: '*/*' });
      const fn = resources[logicalIdOf(stack.edge.viewerAddress)]!;
      expect(fn.Properties).toMatchObject({ FunctionCode: VIEWER_ADDRESS_FUNCTION_CODE, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
    });

    it('is the public URL, or the edge domain with its certificate and TLS 1.2 (2021) when one is set', () => {
      const withDomain = synthStack({ domain: { name: 'id.acme.example', certificateArn: CERTIFICATE('us-east-1') } });
      const config = distributionConfig(withDomain.template.toJSON().Resources as Record<string, Resource>);
      expect(config.Aliases).toEqual(['id.acme.example']);
      expect(config.ViewerCertificate).toEqual({ AcmCertificateArn: CERTIFICATE('us-east-1'), MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
      const fn = (withDomain.template.toJSON().Resources as Record<string, Resource>)[logicalIdOf(withDomain.stack.functions.get('health')!)]!;
      expect((fn.Properties!.Environment as { Variables: Json }).Variables.TESSERA_PUBLIC_URL).toBe('https://id.acme.example');
    });
  });

  describe('API Gateway', () => {
    it('throttles single routes (sign-in, password reset, MFA) below the stage, from settings', () => {
      const [[, stage]] = ofType('AWS::ApiGatewayV2::Stage') as [[string, Resource]];
      const expected = Object.fromEntries(Object.entries(defaultStackSettings.routeThrottles).map(([k, t]) => [k, { ThrottlingRateLimit: t.rateLimit, ThrottlingBurstLimit: t.burstLimit }]));
      expect(stage.Properties!.RouteSettings).toEqual(expected);
      expect(Object.keys(expected)).toContain('POST /v1/auth/login');
      // What no route takes reaches a function too: it has a throttle of its own, below the stage's.
      expect(stage.Properties!.RouteSettings).toMatchObject({ $default: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 } });
      expect(ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!.RouteKey)).toContain('$default');
      // CloudFormation creates the stage only after every route its settings name: a stage made
      // first fails with "Unable to find Route by key … within the provided RouteSettings".
      const routeIdsByKey = new Map(ofType('AWS::ApiGatewayV2::Route').map(([id, r]) => [r.Properties!.RouteKey as string, id]));
      const dependsOn: string[] = [stage.DependsOn ?? []].flat();
      for (const routeKey of Object.keys(expected)) expect(dependsOn, routeKey).toContain(routeIdsByKey.get(routeKey));
      const custom = synthStack({ routeThrottles: { 'POST /v1/mfa/challenge': { rateLimit: 3, burstLimit: 4 } } }).template;
      custom.hasResourceProperties('AWS::ApiGatewayV2::Stage', { RouteSettings: { 'POST /v1/mfa/challenge': { ThrottlingRateLimit: 3, ThrottlingBurstLimit: 4 } } });
      expect(() => synthStack({ routeThrottles: { 'POST /v1/auth/nope': { rateLimit: 3, burstLimit: 4 } } })).toThrow(/not a route/);
    });

    it('reserves a modest concurrency for each Argon2id function and for no other', () => {
      const reserved = [...stack.functions].map(([handler, fn]) => [handler, resources[logicalIdOf(fn)]!.Properties!.ReservedConcurrentExecutions] as const);
      for (const [handler, value] of reserved) expect(value, handler).toBe(passwordHashingHandlers.has(handler) ? defaultStackSettings.passwordHashingConcurrency : undefined);
      // The account's default is 1000 concurrent executions, of which Lambda keeps 100 unreserved.
      const total = reserved.reduce((sum, [, value]) => sum + Number(value ?? 0), 0);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(100);
    });

    it('keeps the execute-api endpoint without a custom domain, and turns it off with one (CloudFront then reaches the domain)', () => {
      const [[, plainApi]] = ofType('AWS::ApiGatewayV2::Api') as [[string, Resource]];
      expect(plainApi.Properties!.DisableExecuteApiEndpoint).toBe(false);
      expect(ofType('AWS::ApiGatewayV2::DomainName')).toHaveLength(0);
      const withDomain = synthStack({ apiDomain: { name: 'api-origin.acme.example', certificateArn: CERTIFICATE('eu-west-1') } });
      const domainResources = withDomain.template.toJSON().Resources as Record<string, Resource>;
      const [[, api]] = ofType('AWS::ApiGatewayV2::Api', domainResources) as [[string, Resource]];
      expect(api.Properties!.DisableExecuteApiEndpoint).toBe(true);
      withDomain.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
        DomainName: 'api-origin.acme.example',
        DomainNameConfigurations: [{ CertificateArn: CERTIFICATE('eu-west-1'), EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
      });
      withDomain.template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { ApiId: { Ref: logicalIdOf(withDomain.stack.api) } });
      expect(apiOrigin(domainResources).DomainName).toBe('api-origin.acme.example');
    });
  });
});
