/**
 * CDK assertions on the table's protection: deletion protection, the AWS Backup plan (daily,
 * weekly, monthly with the retention from settings) into a retained vault with its own key,
 * the table selected, and termination protection on production stacks only.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { readStackSettings, type StackSettings } from '../../infra/stack-settings';
import type { TesseraStack } from '../../infra/tessera-stack';
import { cdkJsonContext } from '../support/cdk-json-context';
import { logicalIdOf, synthStack, testEnvironmentStacks, type Resource } from '../support/stack-synth';

describe('data protection', () => {
  let stack: TesseraStack;
  let template: Template;
  let resources: Record<string, Resource>;
  beforeAll(() => {
    ({ stack, template } = synthStack());
    resources = template.toJSON().Resources as Record<string, Resource>;
  });
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

  it('refuses a DeleteTable (deletion protection), besides retaining the table', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
  });

  it('backs the table up daily, weekly and monthly into its own vault, each kept as long as the settings say', () => {
    const plans = ofType('AWS::Backup::BackupPlan');
    expect(plans).toHaveLength(1);
    const vaultId = logicalIdOf(stack.backups.vault);
    const rules = (plans[0]![1].Properties!.BackupPlan as { BackupPlanRule: Record<string, unknown>[] }).BackupPlanRule;
    const byName: Record<string, Record<string, unknown>> = Object.fromEntries(rules.map((r) => [String(r.RuleName), r]));
    expect(Object.keys(byName).sort()).toEqual(['daily', 'monthly', 'weekly']);
    expect(byName.daily).toMatchObject({ ScheduleExpression: 'cron(0 5 * * ? *)', Lifecycle: { DeleteAfterDays: 35 } });
    expect(byName.weekly).toMatchObject({ ScheduleExpression: 'cron(0 5 ? * SUN *)', Lifecycle: { DeleteAfterDays: 91 } });
    expect(byName.monthly).toMatchObject({ ScheduleExpression: 'cron(0 5 1 * ? *)', Lifecycle: { DeleteAfterDays: 365 } });
    for (const rule of rules) expect(rule.TargetBackupVault).toEqual({ 'Fn::GetAtt': [vaultId, 'BackupVaultName'] });

    const { template: custom } = synthStack({ backupRetentionDays: { daily: 7, weekly: 30, monthly: 730 } });
    const customRules = (Object.values(custom.findResources('AWS::Backup::BackupPlan'))[0] as Resource).Properties!.BackupPlan as { BackupPlanRule: { RuleName: string; Lifecycle: unknown }[] };
    expect(Object.fromEntries(customRules.BackupPlanRule.map((r) => [r.RuleName, r.Lifecycle]))).toEqual({
      daily: { DeleteAfterDays: 7 },
      weekly: { DeleteAfterDays: 30 },
      monthly: { DeleteAfterDays: 730 },
    });
  });

  it('selects exactly the table', () => {
    const selections = ofType('AWS::Backup::BackupSelection');
    expect(selections).toHaveLength(1);
    expect((selections[0]![1].Properties!.BackupSelection as { Resources: unknown[] }).Resources).toEqual([{ 'Fn::GetAtt': [logicalIdOf(stack.table), 'Arn'] }]);
  });

  it('keeps the vault and its rotated key when the stack goes, and lets no one delete a recovery point early', () => {
    const vaultKeyId = logicalIdOf(stack.backups.vaultKey);
    template.hasResource('AWS::Backup::BackupVault', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { EncryptionKeyArn: { 'Fn::GetAtt': [vaultKeyId, 'Arn'] } },
    });
    expect(resources[vaultKeyId]).toMatchObject({ DeletionPolicy: 'Retain', Properties: { EnableKeyRotation: true } });
    expect(vaultKeyId).not.toBe(logicalIdOf(stack.envelopeKey));
    const [[, vault]] = ofType('AWS::Backup::BackupVault') as [[string, Resource]];
    const deny = (vault.Properties!.AccessPolicy as { Statement: { Effect: string; Action: string[] }[] }).Statement.find((s) => s.Effect === 'Deny');
    expect(deny?.Action).toContain('backup:DeleteRecoveryPoint');
  });

  it('turns termination protection on for production environments and off for dev', () => {
    const protectionOf = (settings: Partial<StackSettings>) => {
      const { stack, edgeFirewall } = testEnvironmentStacks(settings);
      expect(edgeFirewall.terminationProtection).toBe(stack.terminationProtection);
      return stack.terminationProtection;
    };
    expect(protectionOf({ env: 'acme-prod', production: true })).toBe(true);
    expect(protectionOf({ env: 'acme-prod', production: false })).toBe(false);
    // From cdk.json: the production example, and dev.
    expect(protectionOf(readStackSettings(new App({ context: { ...cdkJsonContext(), env: 'acme-prod' } }).node))).toBe(true);
    expect(protectionOf(readStackSettings(new App({ context: { ...cdkJsonContext(), env: 'dev' } }).node))).toBe(false);
  });
});
