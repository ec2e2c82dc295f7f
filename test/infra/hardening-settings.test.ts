/** The issue-13 settings from CDK context: parsed from CLI strings, refused with a clear message when bad, defaulted per environment. */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { defaultStackSettings, hardeningDefaults, hardeningOf, readStackSettings } from '../../infra/stack-settings';

const settingsFrom = (context: Record<string, unknown>) => readStackSettings(new App({ context }).node);
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f6e8a2c-1234-4abc-8def-0123456789ab';

describe('hardening settings', () => {
  it('adds nothing when no key is given, and defaults by environment: production canaries, dev deploys at once', () => {
    expect(settingsFrom({ env: 'acme-dev' })).toEqual({ ...defaultStackSettings, env: 'acme-dev' });
    expect(hardeningOf(settingsFrom({ env: 'acme-prod' }))).toMatchObject({ production: true, deploymentConfig: 'CANARY_10PERCENT_5MINUTES' });
    expect(hardeningOf(settingsFrom({ env: 'acme-dev' }))).toMatchObject({ production: false, deploymentConfig: 'ALL_AT_ONCE' });
    expect(hardeningOf(settingsFrom({ env: 'acme-dev', production: 'true' }))).toMatchObject({ production: true, deploymentConfig: 'CANARY_10PERCENT_5MINUTES' });
    expect(hardeningOf(settingsFrom({ env: 'acme-prod', deploymentConfig: 'ALL_AT_ONCE' }))).toMatchObject({ production: true, deploymentConfig: 'ALL_AT_ONCE' });
  });

  it('parses every key from CLI strings', () => {
    const s = settingsFrom({
      env: 'acme-prod',
      production: 'false',
      deploymentConfig: 'LINEAR_10PERCENT_EVERY_1MINUTE',
      backupDailyDays: '14',
      backupMonthlyDays: '730',
      edgeRateLimitAuth: '500',
      routeThrottles: '{"POST /v1/auth/login": {"rateLimit": 7, "burstLimit": 9}}',
      passwordHashingConcurrency: '4',
      apiDomainName: 'api-origin.acme.example',
      apiCertificateArn: CERT.replace('us-east-1', 'eu-west-1'),
      edgeDomainName: 'id.acme.example',
      edgeCertificateArn: CERT,
    });
    expect(hardeningOf(s)).toEqual({
      production: false,
      deploymentConfig: 'LINEAR_10PERCENT_EVERY_1MINUTE',
      backupRetentionDays: { daily: 14, weekly: hardeningDefaults(false).backupRetentionDays.weekly, monthly: 730 },
      edgeRateLimits: { auth: 500, mfa: hardeningDefaults(false).edgeRateLimits.mfa },
      routeThrottles: { 'POST /v1/auth/login': { rateLimit: 7, burstLimit: 9 } },
      passwordHashingConcurrency: 4,
      apiDomain: { name: 'api-origin.acme.example', certificateArn: CERT.replace('us-east-1', 'eu-west-1') },
      edgeDomain: { name: 'id.acme.example', certificateArn: CERT },
    });
  });

  it('refuses bad values, naming the key', () => {
    expect(() => settingsFrom({ production: 'maybe' })).toThrow(/production/);
    expect(() => settingsFrom({ deploymentConfig: 'CANARY_50PERCENT' })).toThrow(/deploymentConfig/);
    expect(() => settingsFrom({ backupDailyDays: '0' })).toThrow(/backupDailyDays/);
    expect(() => settingsFrom({ backupDailyDays: '400' })).toThrow(/backupDailyDays <= backupWeeklyDays/);
    expect(() => settingsFrom({ edgeRateLimitMfa: '5' })).toThrow(/edgeRateLimitMfa/);
    expect(() => settingsFrom({ routeThrottles: 'not json' })).toThrow(/routeThrottles/);
    expect(() => settingsFrom({ routeThrottles: '{"login": {"rateLimit": 1, "burstLimit": 1}}' })).toThrow(/routeThrottles/);
    expect(() => settingsFrom({ routeThrottles: '{"POST /v1/auth/login": {"rateLimit": 1}}' })).toThrow(/burstLimit/);
    expect(() => settingsFrom({ passwordHashingConcurrency: '-2' })).toThrow(/passwordHashingConcurrency/);
    expect(() => settingsFrom({ apiDomainName: 'api.acme.example' })).toThrow(/apiCertificateArn/);
    expect(() => settingsFrom({ edgeDomainName: 'Not A Domain', edgeCertificateArn: CERT })).toThrow(/edgeDomainName/);
  });
});
