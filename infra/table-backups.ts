/**
 * Backups of the table beyond point-in-time recovery: an AWS Backup plan (daily, weekly and
 * monthly recovery points, each kept as long as the settings say) into a vault of its own.
 *
 * Why a plan on top of PITR: PITR goes back 35 days at most and lives with the table (a table
 * deleted by hand keeps only one last backup for 35 days); the plan's recovery points are kept
 * for a year, apart from the table, in a vault whose recovery points nobody can delete before
 * their lifecycle ends (`blockRecoveryPointDeletion`). The vault and its key are retained when
 * the stack goes: deleting them would delete the backups. With AWS Backup's advanced DynamoDB
 * features on (an account setting), recovery points are encrypted with the vault's key;
 * without them they are DynamoDB backups under the table's own encryption.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { StackSettings } from './stack-settings';

export interface TableBackupsProps {
  env: string;
  table: dynamodb.ITable;
  retentionDays: StackSettings['backupRetentionDays'];
}

/** All three rules start at 05:00 UTC, the quiet hour of the tenants' working days in Europe and the Americas. */
export const BACKUP_SCHEDULES = {
  daily: events.Schedule.cron({ minute: '0', hour: '5' }),
  weekly: events.Schedule.cron({ minute: '0', hour: '5', weekDay: 'SUN' }),
  monthly: events.Schedule.cron({ minute: '0', hour: '5', day: '1' }),
} as const;

export class TableBackups extends Construct {
  readonly vault: backup.BackupVault;
  readonly vaultKey: kms.Key;
  readonly plan: backup.BackupPlan;

  constructor(scope: Construct, id: string, props: TableBackupsProps) {
    super(scope, id);
    this.vaultKey = new kms.Key(this, 'VaultKey', {
      description: `Tessera ${props.env}: encryption of the backup vault's recovery points`,
      alias: `alias/tessera/${props.env}/backup`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.vault = new backup.BackupVault(this, 'Vault', {
      backupVaultName: `tessera-${props.env}`,
      encryptionKey: this.vaultKey,
      blockRecoveryPointDeletion: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupPlanName: `tessera-${props.env}-table`,
      backupVault: this.vault,
      backupPlanRules: (['daily', 'weekly', 'monthly'] as const).map(
        (kind) =>
          new backup.BackupPlanRule({
            ruleName: kind,
            scheduleExpression: BACKUP_SCHEDULES[kind],
            // Started within an hour, done within a day: a DynamoDB backup takes seconds to minutes.
            startWindow: Duration.hours(1),
            completionWindow: Duration.hours(24),
            deleteAfter: Duration.days(props.retentionDays[kind]),
          }),
      ),
    });
    const selection = this.plan.addSelection('Table', {
      resources: [backup.BackupResource.fromDynamoDbTable(props.table)],
      backupSelectionName: 'table',
    });
    Validations.of(selection.node.findChild('Role')).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      reason: 'AWS Backup\'s own role takes the AWS managed AWSBackupServiceRolePolicyForBackup, which AWS keeps in step with what each resource type\'s backup needs; it is the role the service documents for selections.',
    });
  }
}
