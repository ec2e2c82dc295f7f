/**
 * Safe deploys: every function is called through its `live` alias (API integrations, the run
 * queue's event source, the dispatcher's schedule), never through $LATEST, and CodeDeploy
 * shifts that alias to a new version with the environment's config (a canary in production,
 * all at once in dev). A deployment rolls back when it fails, is stopped, or when one of the
 * alias's alarms fires during it:
 * - Errors of the alias: invocations that crashed or timed out.
 * - For routes, the 5xx the function rendered itself: the middleware chain turns an unexpected
 *   error into a problem+json 500 (a successful invocation for Lambda), logging
 *   `SERVER_ERROR_LOG_MESSAGE` (shared/observability.ts) at error level; a metric filter on the function's log group
 *   counts those lines. The log group is shared by the old and the new version, so a 5xx of
 *   the old version during the canary also rolls back: the safe side.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SERVER_ERROR_LOG_MESSAGE } from '../shared/observability';
import { pascalCase } from './route-function';
import type { DeploymentConfigName } from './stack-settings';

export const LIVE_ALIAS_NAME = 'live';
/** The namespace of the metrics made from log lines for deployment alarms. */
export const DEPLOYMENT_METRICS_NAMESPACE = 'Tessera/Deployments';

const DEPLOYMENT_CONFIGS: Record<DeploymentConfigName, codedeploy.ILambdaDeploymentConfig> = {
  ALL_AT_ONCE: codedeploy.LambdaDeploymentConfig.ALL_AT_ONCE,
  CANARY_10PERCENT_5MINUTES: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  CANARY_10PERCENT_10MINUTES: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_10MINUTES,
  LINEAR_10PERCENT_EVERY_1MINUTE: codedeploy.LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
};

export interface ProtectedFunctionProps {
  handler: string;
  fn: lambda.Function;
  logGroup: logs.ILogGroup;
  /** A route's function renders its own 500s (see above); a job's errors are invocation errors. */
  servesRoutes: boolean;
}

export interface ProtectedFunction {
  alias: lambda.Alias;
  deploymentGroup: codedeploy.LambdaDeploymentGroup;
  alarms: cloudwatch.Alarm[];
}

export class DeploymentSafety extends Construct {
  /** One CodeDeploy service role for every deployment group of the stack. */
  readonly role: iam.Role;
  private readonly env: string;
  private readonly config: codedeploy.ILambdaDeploymentConfig;

  constructor(scope: Construct, id: string, props: { env: string; deploymentConfig: DeploymentConfigName }) {
    super(scope, id);
    this.env = props.env;
    this.config = DEPLOYMENT_CONFIGS[props.deploymentConfig];
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('codedeploy.amazonaws.com'),
      description: `Tessera ${props.env}: CodeDeploy shifting the functions' live aliases`,
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason: 'The AWS managed policy CodeDeploy documents for Lambda deployments: it can invoke only hook functions named CodeDeployHook_* and update aliases; the deployment group adds it.',
    });
  }

  /** The alias, its alarms and its deployment group, made beside the function (in its stack). */
  protect(props: ProtectedFunctionProps): ProtectedFunction {
    const scope = props.fn.node.scope!;
    const id = pascalCase(props.handler);
    const alias = new lambda.Alias(scope, `${id}Live`, {
      aliasName: LIVE_ALIAS_NAME,
      version: props.fn.currentVersion,
      description: `Tessera ${this.env}: what ${props.handler}'s callers invoke; CodeDeploy moves it`,
    });
    const name = (what: string) => `tessera-${this.env}-${props.handler}-${what}`;
    const alarms = [
      new cloudwatch.Alarm(scope, `${id}LiveErrors`, {
        alarmName: name('live-errors'),
        alarmDescription: `Tessera ${this.env}: ${props.handler}'s live alias had invocation errors (crash or timeout); rolls a deployment back.`,
        metric: alias.metricErrors({ period: Duration.minutes(1), statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
    if (props.servesRoutes) {
      const filter = new logs.MetricFilter(scope, `${id}ServerErrorLines`, {
        logGroup: props.logGroup,
        filterPattern: logs.FilterPattern.all(logs.FilterPattern.stringValue('$.level', '=', 'ERROR'), logs.FilterPattern.stringValue('$.message', '=', SERVER_ERROR_LOG_MESSAGE)),
        metricNamespace: DEPLOYMENT_METRICS_NAMESPACE,
        metricName: `${id}ServerErrors`,
        metricValue: '1',
      });
      alarms.push(
        new cloudwatch.Alarm(scope, `${id}ServerErrors`, {
          alarmName: name('server-errors'),
          alarmDescription: `Tessera ${this.env}: ${props.handler} answered 5xx; rolls a deployment back.`,
          metric: filter.metric({ period: Duration.minutes(1), statistic: 'Sum' }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
    const deploymentGroup = new codedeploy.LambdaDeploymentGroup(scope, `${id}Deployment`, {
      application: applicationOf(scope, this.env),
      alias,
      deploymentConfig: this.config,
      role: this.role,
      alarms,
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
    return { alias, deploymentGroup, alarms };
  }
}

/** One CodeDeploy application per stack that holds functions (a nested stack's groups name it in the same template). */
function applicationOf(scope: Construct, env: string): codedeploy.LambdaApplication {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('Deployments');
  if (existing) return existing as codedeploy.LambdaApplication;
  return new codedeploy.LambdaApplication(stack, 'Deployments', { applicationName: `tessera-${env}-${stack.node.id.replace(/Functions$/, '').toLowerCase()}` });
}
