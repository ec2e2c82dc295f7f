/**
 * The edge, deploy and backup settings of an environment (infra/stack-settings.ts): defaulted by
 * tier, taken from cdk.json's entry, and refused with a message naming the field when wrong.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { defaultStackSettings, readStackSettings } from '../../infra/stack-settings';
import { cdkJsonContext } from '../support/cdk-json-context';

type Json = Record<string, unknown>;
const settingsFrom = (context: Json) => readStackSettings(new App({ context }).node);
/** An environment `acme-x` with this entry, selected. */
const entry = (settings: Json): Json => ({ env: 'acme-x', environments: { 'acme-x': settings } });
const production = { tier: 'production', account: '111111111111', region: 'eu-west-1', emailFrom: 'identity@mail.acme.example', alarms: { emails: ['oncall@acme.example'] } };
const CERT = (region: string) => `arn:aws:acm:${region}:111111111111:certificate/0f6e8a2c-1234-4abc-8def-0123456789ab`;

describe('edge, deploy and backup settings', () => {
  it('default by tier: production canaries and is protected, development deploys at once', () => {
    expect(settingsFrom(entry(production))).toMatchObject({ production: true, deploymentConfig: 'CANARY_10PERCENT_5MINUTES' });
    expect(settingsFrom(entry({ tier: 'development' }))).toMatchObject({ production: false, deploymentConfig: 'ALL_AT_ONCE' });
    expect(settingsFrom(entry({ ...production, deploymentConfig: 'ALL_AT_ONCE' }))).toMatchObject({ production: true, deploymentConfig: 'ALL_AT_ONCE' });
    expect(defaultStackSettings).toMatchObject({
      passwordHashingConcurrency: 10,
      edgeRateLimits: { auth: 300, mfa: 100 },
      backupRetentionDays: { daily: 35, weekly: 91, monthly: 365 },
      routeThrottles: { 'POST /v1/auth/login': { rateLimit: 20, burstLimit: 40 } },
    });
  });

  it('take every field from the entry; acme-prod in cdk.json sets them all', () => {
    const s = settingsFrom(
      entry({
        deploymentConfig: 'LINEAR_10PERCENT_EVERY_1MINUTE',
        backupRetentionDays: { daily: 14, monthly: 730 },
        edgeRateLimits: { auth: 500 },
        routeThrottles: { 'POST /v1/auth/login': { rateLimit: 7, burstLimit: 9 } },
        passwordHashingConcurrency: 4,
        region: 'eu-west-1',
        apiDomain: { name: 'api-origin.acme.example', certificateArn: CERT('eu-west-1') },
        domain: { name: 'id.acme.example', certificateArn: CERT('us-east-1') },
      }),
    );
    expect(s).toMatchObject({
      deploymentConfig: 'LINEAR_10PERCENT_EVERY_1MINUTE',
      backupRetentionDays: { daily: 14, weekly: 91, monthly: 730 },
      edgeRateLimits: { auth: 500, mfa: 100 },
      routeThrottles: { 'POST /v1/auth/login': { rateLimit: 7, burstLimit: 9 } },
      passwordHashingConcurrency: 4,
      apiDomain: { name: 'api-origin.acme.example', certificateArn: CERT('eu-west-1') },
      domain: { name: 'id.acme.example', certificateArn: CERT('us-east-1') },
      publicUrl: 'https://id.acme.example',
    });
    expect(Object.keys(s.routeThrottles)).toEqual(['POST /v1/auth/login']);
    // What no route takes has a throttle of its own by default, and can be given another.
    expect(Object.keys(settingsFrom(entry({})).routeThrottles)).toContain('$default');
    expect(settingsFrom(entry({ routeThrottles: { $default: { rateLimit: 2, burstLimit: 3 } } })).routeThrottles).toEqual({ $default: { rateLimit: 2, burstLimit: 3 } });
    const prod = settingsFrom({ ...cdkJsonContext(), env: 'acme-prod' });
    expect(prod.apiDomain?.name).toBe('api-origin.acme.example');
    expect(prod.deploymentConfig).toBe('CANARY_10PERCENT_5MINUTES');
  });

  it('refuse bad values, naming the field', () => {
    const refused = (settings: Json, message: RegExp) => expect(() => settingsFrom(entry(settings))).toThrow(message);
    refused({ deploymentConfig: 'CANARY_50PERCENT' }, /environments\.acme-x\.deploymentConfig/);
    refused({ backupRetentionDays: { daily: 0 } }, /backupRetentionDays\.daily/);
    refused({ backupRetentionDays: { daily: 400 } }, /backupRetentionDays must keep daily <= weekly <= monthly/);
    refused({ edgeRateLimits: { mfa: 5 } }, /edgeRateLimits\.mfa/);
    refused({ routeThrottles: { login: { rateLimit: 1, burstLimit: 1 } } }, /routeThrottles\.login must be a route key/);
    refused({ routeThrottles: { 'POST /v1/auth/login': { rateLimit: 1 } } }, /routeThrottles\.POST \/v1\/auth\/login\.burstLimit/);
    refused({ passwordHashingConcurrency: -2 }, /passwordHashingConcurrency/);
    refused({ apiDomain: { name: 'api.acme.example' } }, /apiDomain\.certificateArn/);
    refused({ domain: { name: 'Not A Domain', certificateArn: CERT('us-east-1') } }, /domain\.name/);
    refused({ domain: { name: 'id.acme.example', certificateArn: CERT('eu-west-1') } }, /domain\.certificateArn must be a certificate in us-east-1/);
    refused({ region: 'eu-west-1', apiDomain: { name: 'api.acme.example', certificateArn: CERT('us-east-1') } }, /apiDomain\.certificateArn must be a certificate in the stack's region eu-west-1/);
  });
});
