/**
 * Per-environment settings (infra/stack-settings.ts): cdk.json's environments parse, a missing
 * or wrong value stops the synth with a message that names it, and what an environment sets
 * reaches the stack (its account and region, the functions' environment, memory and timeouts)
 * in a form the functions' own config loader accepts.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { hasBudgetedTimeout, functionTimeoutSeconds } from '../../infra/function-timeouts';
import { passwordHashingHandlers } from '../../infra/handler-capabilities';
import { defaultStackSettings, readStackSettings, stackEnvironment, stackName, type StackSettings } from '../../infra/stack-settings';
import { loadConfig } from '../../shared/config';
import { cdkJsonContext } from '../support/cdk-json-context';
import { flatTemplate, logicalIdOf, testEnvironmentStacks } from '../support/stack-synth';

type Json = Record<string, unknown>;

const settingsFrom = (context: Json) => readStackSettings(new App({ context }).node);
/** cdk.json's context with acme-prod changed by `change`, selected. */
const prodWith = (change: (entry: Json) => void): Json => {
  const context = structuredClone(cdkJsonContext()) as { environments: Record<string, Json> };
  change(context.environments['acme-prod']!);
  return { ...context, env: 'acme-prod' };
};

describe('environments in cdk.json', () => {
  it('defines the production example acme-prod: its account and region, a domain, a real sender, subscribers, tracing', () => {
    const settings = settingsFrom({ ...cdkJsonContext(), env: 'acme-prod' });
    expect(settings).toMatchObject({
      env: 'acme-prod',
      tier: 'production',
      production: true,
      account: '111111111111',
      region: 'eu-west-1',
      domain: { name: 'id.acme.example' },
      publicUrl: 'https://id.acme.example',
      emailFrom: { address: 'identity@mail.acme.example', domain: 'mail.acme.example' },
      tracing: true,
    });
    expect(settings.alarms.emails.length).toBeGreaterThan(0);
    expect(stackName(settings.env)).toBe('Tessera-acme-prod');
  });

  it('deploys a staging or production stack where its entry says, whoever runs cdk; development falls back to the CLI\'s account', () => {
    const cli = { CDK_DEFAULT_ACCOUNT: '999999999999', CDK_DEFAULT_REGION: 'us-west-2' };
    expect(stackEnvironment(settingsFrom({ ...cdkJsonContext(), env: 'acme-prod' }), cli)).toEqual({ account: '111111111111', region: 'eu-west-1' });
    expect(stackEnvironment(settingsFrom({ ...cdkJsonContext(), env: 'dev' }), cli)).toEqual({ account: '999999999999', region: 'us-west-2' });
  });

  it('defaults env to dev, which needs no entry; any other name must be defined', () => {
    expect(settingsFrom({})).toEqual(defaultStackSettings);
    expect(defaultStackSettings).toMatchObject({ env: 'dev', tier: 'development', production: false, tracing: false });
    expect(() => settingsFrom({ ...cdkJsonContext(), env: 'acme-prd' })).toThrow(/"acme-prd" is not defined in cdk.json context.environments \(defined: dev, acme-prod\)/);
    expect(() => settingsFrom({ env: 'Acme Prod' })).toThrow(/env must be lower-case/);
  });

  it('requires a real sender outside development, with a message that says why', () => {
    expect(() => settingsFrom(prodWith((e) => delete e.emailFrom))).toThrow(/environments\.acme-prod\.emailFrom is required for a production environment: .*cannot be sent from SES/);
    expect(() => settingsFrom(prodWith((e) => (e.emailFrom = 'no-reply@example.com')))).toThrow(/environments\.acme-prod\.emailFrom cannot be an example\.com address/);
    expect(() => settingsFrom(prodWith((e) => (e.emailFrom = 'a@b.example\r\nBcc: x@y.example')))).toThrow(/emailFrom must be an email address/);
    expect(() => settingsFrom(prodWith((e) => (e.tier = 'staging')))).not.toThrow();
    expect(() => settingsFrom(prodWith((e) => { e.tier = 'staging'; delete e.emailFrom; }))).toThrow(/emailFrom is required for a staging environment/);
  });

  it('requires account and region outside development, and alarm subscribers in production', () => {
    expect(() => settingsFrom(prodWith((e) => delete e.account))).toThrow(/environments\.acme-prod\.account is required/);
    expect(() => settingsFrom(prodWith((e) => delete e.region))).toThrow(/environments\.acme-prod\.region is required/);
    expect(() => settingsFrom(prodWith((e) => (e.account = '1234')))).toThrow(/account must be a 12-digit AWS account id/);
    expect(() => settingsFrom(prodWith((e) => ((e.alarms as Json).emails = [])))).toThrow(/alarms\.emails needs at least one subscriber in production/);
    expect(() => settingsFrom(prodWith((e) => ((e.alarms as Json).emails = ['not-an-address'])))).toThrow(/alarms\.emails\.0/);
  });

  it('refuses values the functions would refuse at their cold start, unknown fields, and a publicUrl off the custom domain', () => {
    expect(() => settingsFrom(prodWith((e) => ((e.tokens as Json).accessTokenTtlSeconds = 60)))).toThrow(/tokens\.accessTokenTtlSeconds/);
    expect(() => settingsFrom(prodWith((e) => ((e.tokens as Json).sessionMaxSeconds = 9)))).toThrow(/tokens\.sessionMaxSeconds/);
    expect(() => settingsFrom(prodWith((e) => ((e.rateLimits as Json).windowSeconds = 0)))).toThrow(/rateLimits\.windowSeconds/);
    expect(() => settingsFrom(prodWith((e) => ((e.timeouts as Json).routeSeconds = 30)))).toThrow(/timeouts\.routeSeconds/);
    expect(() => settingsFrom(prodWith((e) => (e.logRetentionDays = 31)))).toThrow(/logRetentionDays must be one of/);
    expect(() => settingsFrom(prodWith((e) => (e.throtle = {})))).toThrow(/throtle/);
    expect(() => settingsFrom(prodWith((e) => (e.publicUrl = 'https://elsewhere.example')))).toThrow(/publicUrl must be on the custom domain id\.acme\.example/);
    const domain = { name: 'id.dev.example', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-4000-8000-000000000000' };
    expect(() => settingsFrom({ environments: { dev: { domain, publicUrl: 'https://elsewhere.example' } } })).toThrow(/environments\.dev\.publicUrl must be on the custom domain/);
    expect(() => settingsFrom(prodWith((e) => ((e.domain as Json).certificateArn = 'arn:aws:iam::111111111111:role/x')))).toThrow(/certificateArn must be an ACM certificate ARN/);
  });

  it('takes the command-line overrides in development (strings, as the CLI passes them) and refuses them elsewhere', () => {
    const s = settingsFrom({ throttleRate: '7', throttleBurst: '9', logRetentionDays: '30', tracing: 'true', publicUrl: 'https://id.acme.example/' });
    expect(s).toEqual({ ...defaultStackSettings, publicUrl: 'https://id.acme.example', throttle: { rateLimit: 7, burstLimit: 9 }, logRetention: 30, tracing: true });
    expect(settingsFrom({ emailFrom: 'Acme Identity <Identity@Mail.Acme.example>' }).emailFrom).toEqual({ header: 'Acme Identity <Identity@Mail.Acme.example>', address: 'identity@mail.acme.example', domain: 'mail.acme.example' });
    expect(settingsFrom({ emailFrom: 'ops@acme.example', sesConfigurationSet: 'tessera-events' })).toMatchObject({ emailFrom: { address: 'ops@acme.example' }, sesConfigurationSet: 'tessera-events' });
    expect(() => settingsFrom({ emailFrom: 'not an address' })).toThrow(/emailFrom/);
    expect(() => settingsFrom({ sesConfigurationSet: 'a b' })).toThrow(/sesConfigurationSet/);
    expect(() => settingsFrom({ throttleRate: '-1' })).toThrow(/throttle\.rateLimit/);
    expect(() => settingsFrom({ tracing: 'maybe' })).toThrow(/tracing/);
    expect(() => settingsFrom({ publicUrl: 'http://insecure.example' })).toThrow(/publicUrl must be an https URL/);
    expect(() => settingsFrom({ ...cdkJsonContext(), env: 'acme-prod', throttleRate: '7' })).toThrow(/acme-prod is a production environment: set throttleRate in its cdk.json entry/);
  });
});

describe('what an environment sets reaches the stack', () => {
  const custom: StackSettings = {
    ...defaultStackSettings,
    env: 'test',
    rateLimits: { loginAccountFailures: 11, loginAccountIpFailures: 6, authIpRequests: 301, windowSeconds: 901 },
    tokens: { accessTokenTtlSeconds: 1200, refreshTokenTtlDays: 14, sessionMaxSeconds: 604_800 },
    memory: { defaultMb: 384, passwordHashingMb: 1536, runWorkerMb: 768 },
    timeouts: { routeSeconds: 12, passwordHashingSeconds: 15 },
    throttle: { rateLimit: 7, burstLimit: 9 },
  };
  const { stack } = testEnvironmentStacks(custom);
  const resources = flatTemplate(stack).toJSON().Resources as Record<string, { Properties: Json }>;
  const fnProps = (handler: string) => resources[logicalIdOf(stack.functions.get(handler)!)]!.Properties;

  it('throttles the API stage as the environment says', () => {
    const stages = Object.values(resources).filter((r) => (r as unknown as { Type: string }).Type === 'AWS::ApiGatewayV2::Stage');
    expect(stages.map((stage) => stage.Properties.DefaultRouteSettings)).toEqual([expect.objectContaining({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 })]);
  });

  it('gives every function the rate limits and token lifetimes, which its config loader reads back', () => {
    for (const handler of stack.functions.keys()) {
      const vars = (fnProps(handler).Environment as { Variables: Record<string, unknown> }).Variables;
      const strings = Object.fromEntries(Object.entries(vars).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      const config = loadConfig({ ...strings, TESSERA_STAGE: 'local' });
      expect(config.rateLimits, handler).toEqual({ accountFailures: 11, accountIpFailures: 6, ipRequests: 301, windowSeconds: 901 });
      expect(config.jwt.accessTokenTtlSeconds, handler).toBe(1200);
      expect(config.refreshTokenTtlDays, handler).toBe(14);
      expect(config.sessionMaxSeconds, handler).toBe(604_800);
    }
  });

  it('sizes memory and timeouts per class of function; the budgeted timeouts stay as budgeted', () => {
    for (const handler of stack.functions.keys()) {
      const props = fnProps(handler);
      const hashes = passwordHashingHandlers.has(handler);
      const worker = handler === 'run-worker';
      expect(props.MemorySize, handler).toBe(worker ? 768 : hashes ? 1536 : 384);
      expect(props.Timeout, handler).toBe(hasBudgetedTimeout(handler) ? functionTimeoutSeconds(handler) : hashes ? 15 : 12);
    }
    expect(hasBudgetedTimeout('connections-test') && hasBudgetedTimeout('run-worker')).toBe(true);
  });
});
