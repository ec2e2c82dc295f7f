/**
 * What tells an operator that an environment is unwell: an encrypted SNS topic with the
 * environment's email subscribers, the alarms that notify it, and one CloudWatch dashboard.
 *
 * It is a nested stack because a CloudFormation stack holds at most 500 resources and the
 * tenant stack is near that (a function, role, policy, log group and route per handler); here
 * the alarms cost the parent one resource.
 *
 * Alarms (thresholds from the environment's settings, `alarms` in cdk.json):
 * - API: share of requests answered 5xx, p99 latency (HTTP API metrics).
 * - Lambda: errors, throttles, and the longest invocation as a share of its function's timeout,
 *   each over groups of at most ten functions (an alarm's metric math takes at most ten
 *   metrics; one alarm per function would be three per handler).
 * - DynamoDB: throttled reads and writes of the table and its indexes.
 * - The service's own EMF metrics (shared/observability.ts `metricNames`, namespace and service
 *   dimension from there): failed share of sign-ins and of MFA answers once there are enough
 *   attempts, emails SES refused, failed discovery runs.
 * - The alarms given from elsewhere (the run queues' dead-letter alarms) notify the topic too.
 */
import { Duration, NestedStack, RemovalPolicy, Validations, type NestedStackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { METRICS_NAMESPACE, SERVICE_NAME, metricNames } from '../shared/observability';
import { tableDefinition } from '../shared/store/table';
import type { StackSettings } from './stack-settings';

/** The period every alarm judges, but run failures (a run is daily; an hour sees a wave of them). */
export const ALARM_PERIOD = Duration.minutes(5);
export const RUN_FAILURE_PERIOD = Duration.hours(1);
/** An alarm's metric math takes at most ten metrics. */
export const FUNCTIONS_PER_ALARM = 10;

export interface ObservabilityProps extends NestedStackProps {
  env: string;
  alarms: StackSettings['alarms'];
  api: apigw.HttpApi;
  table: dynamodb.Table;
  /** Every function of the environment, by handler name. */
  functions: ReadonlyMap<string, lambda.Function>;
  /** Alarms made elsewhere that notify the topic as well (the run queues' dead letters). */
  otherAlarms: readonly cloudwatch.Alarm[];
}

/** The service's own metric, as Powertools emits it (EMF: the `service` dimension, and the metric's own, if any). */
function serviceMetric(name: string, dimensions: Record<string, string> = {}, period = ALARM_PERIOD): cloudwatch.Metric {
  return new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service: SERVICE_NAME, ...dimensions }, statistic: 'Sum', period });
}

/** `a, b, c` → `FILL(a,0) + FILL(b,0) + FILL(c,0)`: a sum that a missing series does not blank. */
const filledSum = (ids: readonly string[]) => ids.map((id) => `FILL(${id},0)`).join(' + ');

/** Handlers in groups of at most FUNCTIONS_PER_ALARM, in name order, so a group stays the same between synths. */
export function functionGroups(handlers: Iterable<string>): string[][] {
  const sorted = [...handlers].sort();
  const groups: string[][] = [];
  for (let i = 0; i < sorted.length; i += FUNCTIONS_PER_ALARM) groups.push(sorted.slice(i, i + FUNCTIONS_PER_ALARM));
  return groups;
}

export class Observability extends NestedStack {
  readonly topic: sns.Topic;
  /** Every alarm that notifies the topic, by a name that says what it watches. */
  readonly alarms: ReadonlyMap<string, cloudwatch.Alarm>;
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id, { ...props, description: `Tessera ${props.env}: alarms, their topic and the dashboard` });
    const { env, alarms: thresholds } = props;

    // Alarm messages name functions and tables, not secrets; still encrypted at rest, as cdk-nag
    // asks, with a key of their own that CloudWatch may use (the AWS managed SNS key does not let it).
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: `Tessera ${env}: encryption of alarm notifications`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `Tessera ${env} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    // The topic's policy replaces SNS's default one: say who may publish (CloudWatch alarms of this account).
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    for (const email of thresholds.emails) this.topic.addSubscription(new subscriptions.EmailSubscription(email));
    Validations.of(this.topic).acknowledge({
      id: 'Serverless-SNSRedrivePolicy',
      reason: 'The subscribers are people\'s mailboxes; an alarm that SNS cannot deliver stays visible as the alarm\'s state in CloudWatch and on the dashboard, so a dead-letter queue would hold nothing that is not seen there.',
    });

    const alarms = new Map<string, cloudwatch.Alarm>();
    const action = new cloudwatchActions.SnsAction(this.topic);
    const alarm = (name: string, description: string, options: Omit<cloudwatch.AlarmProps, 'alarmName' | 'alarmDescription' | 'evaluationPeriods' | 'comparisonOperator' | 'treatMissingData'> & { evaluationPeriods?: number }) => {
      const made = new cloudwatch.Alarm(this, `${name}Alarm`, {
        alarmName: `tessera-${env}-${name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}`,
        alarmDescription: `Tessera ${env}: ${description}`,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...options,
      });
      made.addAlarmAction(action);
      made.addOkAction(action);
      alarms.set(name, made);
      return made;
    };

    // API: 5xx share and p99 latency.
    const requests = props.api.metricCount({ period: ALARM_PERIOD, statistic: 'Sum' });
    const serverErrors = props.api.metricServerError({ period: ALARM_PERIOD, statistic: 'Sum' });
    const api5xxPercent = new cloudwatch.MathExpression({
      expression: 'IF(FILL(requests,0) > 0, 100 * FILL(errors,0) / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      period: ALARM_PERIOD,
      label: '5xx, % of requests',
    });
    alarm('Api5xxRate', `at least ${thresholds.api5xxPercent}% of API requests answered 5xx in 5 minutes; read the functions' errors and logs.`, { metric: api5xxPercent, threshold: thresholds.api5xxPercent });
    const p99Latency = props.api.metricLatency({ period: ALARM_PERIOD, statistic: 'p99' });
    alarm('ApiP99Latency', `the API's p99 latency reached ${thresholds.apiP99LatencyMs} ms over 5 minutes, twice in a row.`, { metric: p99Latency, threshold: thresholds.apiP99LatencyMs, evaluationPeriods: 2 });

    // Lambda: errors, throttles, duration near the timeout, per group of functions.
    const groups = functionGroups(props.functions.keys());
    const errorExpressions: cloudwatch.IMetric[] = [];
    const throttleExpressions: cloudwatch.IMetric[] = [];
    const durationExpressions: cloudwatch.IMetric[] = [];
    groups.forEach((handlers, index) => {
      const fns = handlers.map((handler) => props.functions.get(handler)!);
      // Ids unique across groups: the dashboard graphs every group's expression together.
      const ids = handlers.map((_, i) => `g${index}f${i}`);
      const named = handlers.join(', ');
      const metricsOf = (metric: (fn: lambda.Function) => cloudwatch.Metric) => Object.fromEntries(fns.map((fn, i) => [ids[i]!, metric(fn)]));
      const errors = new cloudwatch.MathExpression({
        expression: filledSum(ids),
        usingMetrics: metricsOf((fn) => fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' })),
        period: ALARM_PERIOD,
        label: `Errors, group ${index + 1}`,
      });
      errorExpressions.push(errors);
      alarm(`FunctionErrorsGroup${index + 1}`, `${thresholds.lambdaErrors}+ function errors in 5 minutes among ${named}.`, { metric: errors, threshold: thresholds.lambdaErrors });
      const throttles = new cloudwatch.MathExpression({
        expression: filledSum(ids),
        usingMetrics: metricsOf((fn) => fn.metricThrottles({ period: ALARM_PERIOD, statistic: 'Sum' })),
        period: ALARM_PERIOD,
        label: `Throttles, group ${index + 1}`,
      });
      throttleExpressions.push(throttles);
      alarm(`FunctionThrottlesGroup${index + 1}`, `${thresholds.lambdaThrottles}+ throttled invocations in 5 minutes among ${named} (account or reserved concurrency reached).`, { metric: throttles, threshold: thresholds.lambdaThrottles });
      const timeoutMs = fns.map((fn) => fn.timeout!.toMilliseconds());
      const duration = new cloudwatch.MathExpression({
        expression: `100 * MAX([${ids.map((id, i) => `FILL(${id},0) / ${timeoutMs[i]}`).join(', ')}])`,
        usingMetrics: metricsOf((fn) => fn.metricDuration({ period: ALARM_PERIOD, statistic: 'Maximum' })),
        period: ALARM_PERIOD,
        label: `Longest invocation, % of timeout, group ${index + 1}`,
      });
      durationExpressions.push(duration);
      alarm(`FunctionDurationGroup${index + 1}`, `an invocation among ${named} ran ${thresholds.durationPercentOfTimeout}% or more of its function's timeout in 5 minutes.`, { metric: duration, threshold: thresholds.durationPercentOfTimeout });
    });

    // DynamoDB: throttled reads and writes of the table and of each index.
    const throttleEvents: Record<string, cloudwatch.Metric> = {};
    for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
      throttleEvents[`t${Object.keys(throttleEvents).length}`] = props.table.metric(metricName, { period: ALARM_PERIOD, statistic: 'Sum' });
      for (const gsi of tableDefinition.globalSecondaryIndexes) {
        throttleEvents[`t${Object.keys(throttleEvents).length}`] = props.table.metric(metricName, { period: ALARM_PERIOD, statistic: 'Sum', dimensionsMap: { TableName: props.table.tableName, GlobalSecondaryIndexName: gsi.indexName } });
      }
    }
    const tableThrottles = new cloudwatch.MathExpression({ expression: filledSum(Object.keys(throttleEvents)), usingMetrics: throttleEvents, period: ALARM_PERIOD, label: 'Throttled reads and writes' });
    alarm('DynamoDbThrottles', `${thresholds.dynamodbThrottles}+ throttled reads or writes of the table or its indexes in 5 minutes.`, { metric: tableThrottles, threshold: thresholds.dynamodbThrottles });

    // Sign-ins and MFA: failed share over both methods, once there are enough attempts to judge.
    const failureRate = (failure: string, success: string, methods: readonly string[], label: string) => {
      const usingMetrics: Record<string, cloudwatch.Metric> = {};
      const id = (outcome: string, i: number) => `${failure.toLowerCase()}${outcome}${i}`;
      methods.forEach((method, i) => {
        usingMetrics[id('failed', i)] = serviceMetric(failure, { method });
        usingMetrics[id('passed', i)] = serviceMetric(success, { method });
      });
      const failed = filledSum(methods.map((_, i) => id('failed', i)));
      const all = `${failed} + ${filledSum(methods.map((_, i) => id('passed', i)))}`;
      return new cloudwatch.MathExpression({ expression: `IF((${all}) >= ${thresholds.minAttempts}, 100 * (${failed}) / (${all}), 0)`, usingMetrics, period: ALARM_PERIOD, label });
    };
    const loginFailures = failureRate(metricNames.loginFailure, metricNames.loginSuccess, ['password', 'sso'], 'Failed sign-ins, %');
    alarm('LoginFailureRate', `${thresholds.loginFailurePercent}% or more of at least ${thresholds.minAttempts} sign-ins failed in 5 minutes (a credential-stuffing or brute-force wave, or a broken IdP).`, { metric: loginFailures, threshold: thresholds.loginFailurePercent });
    const mfaFailures = failureRate(metricNames.mfaFailure, metricNames.mfaSuccess, ['totp', 'backup_code'], 'Failed MFA answers, %');
    alarm('MfaFailureRate', `${thresholds.mfaFailurePercent}% or more of at least ${thresholds.minAttempts} MFA answers failed in 5 minutes (guessing, or clocks astray).`, { metric: mfaFailures, threshold: thresholds.mfaFailurePercent });

    const emailFailures = serviceMetric(metricNames.emailSendFailure);
    alarm('EmailSendFailures', `${thresholds.emailSendFailures}+ emails (password reset) not sent in 5 minutes; the logs say why ("password reset email not sent": an unverified sender, a missing permission, SES sending paused).`, { metric: emailFailures, threshold: thresholds.emailSendFailures });
    const runFailures = serviceMetric(metricNames.runFailed, {}, RUN_FAILURE_PERIOD);
    alarm('RunFailures', `${thresholds.runFailures}+ discovery runs failed within an hour; each run's errors say what to fix.`, { metric: runFailures, threshold: thresholds.runFailures });

    // Alarms of this nested stack only in the status widget: one of the parent's there would
    // make the parent depend on this stack (the widget) and this stack on the parent (its action).
    const ownAlarms = [...alarms.values()];
    for (const other of props.otherAlarms) {
      other.addAlarmAction(action);
      other.addOkAction(action);
      alarms.set(other.node.id.replace(/Alarm$/, ''), other);
    }
    this.alarms = alarms;

    const runs = [metricNames.runSucceeded, metricNames.runPartial, metricNames.runFailed].map((name) => serviceMetric(name, {}, RUN_FAILURE_PERIOD));
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `tessera-${env}`,
      defaultInterval: Duration.hours(6),
      widgets: [
        [
          new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: ownAlarms, width: 16, height: 6 }),
          new cloudwatch.GraphWidget({ title: 'Dead-letter queues: messages waiting', left: props.otherAlarms.map((other) => other.metric), width: 8, height: 6 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'API requests and 5xx', left: [requests, serverErrors], right: [api5xxPercent], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'API latency p99 (ms)', left: [p99Latency], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'DynamoDB throttled reads and writes', left: [tableThrottles], width: 8 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Function errors by group', left: errorExpressions, width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Function throttles by group', left: throttleExpressions, width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Longest invocation, % of timeout', left: durationExpressions, width: 8 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Failed sign-ins and MFA answers (%)', left: [loginFailures, mfaFailures], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Emails not sent', left: [emailFailures], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Discovery runs by outcome (per hour)', left: runs, width: 8 }),
        ],
      ],
    });
  }
}
