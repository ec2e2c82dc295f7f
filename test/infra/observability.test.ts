/**
 * CDK assertions on the alarms, their topic and the dashboard (infra/observability.ts, a nested
 * stack): each alarm watches the metric it names, with the threshold the environment's settings
 * give, and notifies the topic; the run queues' dead-letter alarms notify it too; every log
 * group is retained.
 */
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS_PER_ALARM, functionGroups } from '../../infra/observability';
import type { StackSettings } from '../../infra/stack-settings';
import type { TesseraStack } from '../../infra/tessera-stack';
import { METRICS_NAMESPACE, SERVICE_NAME, metricNames } from '../../shared/observability';
import { tableDefinition } from '../../shared/store/table';
import { flatTemplate, logicalIdOf, testEnvironmentStacks } from '../support/stack-synth';

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties?: Json;
  DeletionPolicy?: string;
}
interface MetricQuery {
  Id: string;
  Expression?: string;
  MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] }; Stat: string; Period: number };
  ReturnData?: boolean;
}

/** Thresholds unlike the defaults and unlike each other, so each assertion sees its own. */
const alarmSettings: StackSettings['alarms'] = {
  emails: ['oncall@acme.example', 'security@acme.example'],
  api5xxPercent: 3,
  apiP99LatencyMs: 1234,
  lambdaErrors: 2,
  lambdaThrottles: 4,
  durationPercentOfTimeout: 75,
  dynamodbThrottles: 6,
  loginFailurePercent: 41,
  mfaFailurePercent: 42,
  minAttempts: 17,
  emailSendFailures: 7,
  runFailures: 8,
};

describe('observability', () => {
  let stack: TesseraStack;
  /** The tenant stack's own resources, without its nested stacks'. */
  let parent: Record<string, Resource>;
  /** Every resource, the nested stacks' folded in with their parameters and outputs resolved (test/support/stack-synth.ts). */
  let flat: Record<string, Resource>;
  /** The observability nested stack's resources, as they read in `flat`. */
  let nested: Record<string, Resource>;
  let topicId: string;

  const own = () => Object.keys(nested);
  const alarmsNamed = () => Object.values(nested).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
  const alarm = (name: string) => {
    const found = alarmsNamed().find((r) => r.Properties!.AlarmName === `tessera-test-${name}`);
    expect(found, name).toBeDefined();
    return found!.Properties!;
  };
  const queries = (props: Json) => props.Metrics as MetricQuery[];
  const statsOf = (props: Json) => queries(props).filter((q) => q.MetricStat).map((q) => q.MetricStat!);
  const expressionOf = (props: Json) => queries(props).find((q) => q.ReturnData !== false && q.Expression)!.Expression!;
  const dimension = (stat: NonNullable<MetricQuery['MetricStat']>, name: string) => stat.Metric.Dimensions?.find((d) => d.Name === name)?.Value;

  beforeAll(() => {
    stack = testEnvironmentStacks({ alarms: alarmSettings }).stack;
    parent = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
    flat = flatTemplate(stack).toJSON().Resources as Record<string, Resource>;
    const own = Object.keys(Template.fromStack(stack.observability).toJSON().Resources as Record<string, Resource>);
    nested = Object.fromEntries(own.map((id) => [id, flat[id]!]));
    topicId = stack.observability.getLogicalId(stack.observability.topic.node.defaultChild as CfnElement);
  });

  /** How a construct's reference reads in `flat`, wherever it lives. */
  const refOf = (construct: IConstruct) => ({ Ref: logicalIdOf(construct) });

  it('lives in a nested stack of its own, so no template comes near CloudFormation\'s 500 resources', () => {
    expect(stack.observability.nestedStackResource?.stack).toBe(stack);
    expect(Object.keys(parent).length).toBeLessThan(500);
    expect(own().length).toBeLessThan(500);
    expect(alarmsNamed().length).toBeGreaterThan(10);
  });

  it('has a KMS-encrypted, TLS-only topic that CloudWatch of this account may publish to, with each configured subscriber', () => {
    const topic = nested[topicId]!;
    expect(topic.Type).toBe('AWS::SNS::Topic');
    const keyRef = (topic.Properties!.KmsMasterKeyId as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    expect(nested[keyRef]).toMatchObject({ Type: 'AWS::KMS::Key', Properties: { EnableKeyRotation: true } });
    const keyPolicy = JSON.stringify(nested[keyRef]!.Properties!.KeyPolicy);
    expect(keyPolicy).toContain('cloudwatch.amazonaws.com');
    const [policy] = Object.values(nested).filter((r) => r.Type === 'AWS::SNS::TopicPolicy');
    const statements = (policy!.Properties!.PolicyDocument as { Statement: Json[] }).Statement;
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Allow', Action: 'sns:Publish', Principal: { Service: 'cloudwatch.amazonaws.com' } }));
    const subscribed = Object.values(nested).filter((r) => r.Type === 'AWS::SNS::Subscription').map((r) => r.Properties!);
    expect(subscribed.map((s) => [s.Protocol, s.Endpoint, s.TopicArn])).toEqual(alarmSettings.emails.map((email) => ['email', email, { Ref: topicId }]));
  });

  it('sends every alarm and its recovery to the topic', () => {
    for (const props of alarmsNamed().map((r) => r.Properties!)) {
      expect(props.AlarmActions, String(props.AlarmName)).toEqual([{ Ref: topicId }]);
      expect(props.OKActions, String(props.AlarmName)).toEqual([{ Ref: topicId }]);
    }
  });

  it('alarms on the API\'s share of 5xx answers and on its p99 latency', () => {
    const apiRef = refOf(stack.api);
    const rate = alarm('api5xx-rate');
    expect(rate).toMatchObject({ Threshold: alarmSettings.api5xxPercent, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
    expect(statsOf(rate).map((s) => [s.Metric.Namespace, s.Metric.MetricName, dimension(s, 'ApiId'), s.Stat, s.Period]).sort()).toEqual([
      ['AWS/ApiGateway', '5xx', apiRef, 'Sum', 300],
      ['AWS/ApiGateway', 'Count', apiRef, 'Sum', 300],
    ]);
    expect(expressionOf(rate)).toMatch(/100 \* FILL\(errors,0\) \/ requests/);
    const latency = alarm('api-p99-latency');
    expect(latency).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: 'Latency', ExtendedStatistic: 'p99', Threshold: alarmSettings.apiP99LatencyMs, Dimensions: [{ Name: 'ApiId', Value: apiRef }] });
  });

  it('alarms on errors, throttles and duration near the timeout of every function, each in exactly one group of at most ten', () => {
    const handlers = [...stack.functions.keys()];
    const groups = functionGroups(handlers);
    expect(groups.flat().sort()).toEqual([...handlers].sort());
    expect(groups.every((g) => g.length <= FUNCTIONS_PER_ALARM)).toBe(true);
    const nameOf = (handler: string) => refOf(stack.functions.get(handler)!);
    for (const [kind, metricName, threshold] of [['errors', 'Errors', alarmSettings.lambdaErrors], ['throttles', 'Throttles', alarmSettings.lambdaThrottles], ['duration', 'Duration', alarmSettings.durationPercentOfTimeout]] as const) {
      const watched: string[] = [];
      groups.forEach((group, index) => {
        const props = alarm(`function-${kind}-group${index + 1}`);
        expect(props.Threshold).toBe(threshold);
        const stats = statsOf(props);
        expect(stats).toHaveLength(group.length);
        for (const stat of stats) {
          expect([stat.Metric.Namespace, stat.Metric.MetricName, stat.Stat]).toEqual(['AWS/Lambda', metricName, kind === 'duration' ? 'Maximum' : 'Sum']);
          watched.push(JSON.stringify(dimension(stat, 'FunctionName')));
        }
        if (kind === 'duration') {
          // Each function's longest invocation is judged against its own timeout.
          const expression = expressionOf(props);
          for (const query of queries(props).filter((q) => q.MetricStat)) {
            const handler = group.find((h) => JSON.stringify(nameOf(h)) === JSON.stringify(dimension(query.MetricStat!, 'FunctionName')))!;
            const timeoutMs = (flat[logicalIdOf(stack.functions.get(handler)!)]!.Properties!.Timeout as number) * 1000;
            expect(expression, handler).toContain(`FILL(${query.Id},0) / ${timeoutMs}`);
          }
          expect(expression.startsWith('100 * MAX([')).toBe(true);
        }
      });
      expect(watched.sort(), kind).toEqual(handlers.map((h) => JSON.stringify(nameOf(h))).sort());
    }
  });

  it('alarms on throttled reads and writes of the table and of each index', () => {
    const props = alarm('dynamo-db-throttles');
    expect(props.Threshold).toBe(alarmSettings.dynamodbThrottles);
    const tableName = refOf(stack.table);
    const watched = statsOf(props).map((s) => [s.Metric.MetricName, JSON.stringify(s.Metric.Dimensions)]);
    const expected = ['ReadThrottleEvents', 'WriteThrottleEvents'].flatMap((metric) => [
      [metric, JSON.stringify([{ Name: 'TableName', Value: tableName }])],
      ...tableDefinition.globalSecondaryIndexes.map((gsi) => [metric, JSON.stringify([{ Name: 'GlobalSecondaryIndexName', Value: gsi.indexName }, { Name: 'TableName', Value: tableName }])]),
    ]);
    expect(watched.sort()).toEqual(expected.sort());
    for (const stat of statsOf(props)) expect(stat.Metric.Namespace).toBe('AWS/DynamoDB');
  });

  it('alarms on the failed share of sign-ins and of MFA answers, from the metrics the code emits, once there are enough attempts', () => {
    for (const [name, failure, success, methods, threshold] of [
      ['login-failure-rate', metricNames.loginFailure, metricNames.loginSuccess, ['password', 'sso'], alarmSettings.loginFailurePercent],
      ['mfa-failure-rate', metricNames.mfaFailure, metricNames.mfaSuccess, ['totp', 'backup_code'], alarmSettings.mfaFailurePercent],
    ] as const) {
      const props = alarm(name);
      expect(props.Threshold).toBe(threshold);
      const watched = statsOf(props).map((s) => [s.Metric.Namespace, s.Metric.MetricName, dimension(s, 'service'), dimension(s, 'method'), s.Stat]);
      expect(watched.sort()).toEqual(methods.flatMap((method) => [failure, success].map((metric) => [METRICS_NAMESPACE, metric, SERVICE_NAME, method, 'Sum'])).sort());
      expect(expressionOf(props)).toContain(`>= ${alarmSettings.minAttempts}`);
    }
  });

  it('alarms on emails not sent and on failed discovery runs, from the metrics the code emits', () => {
    expect(alarm('email-send-failures')).toMatchObject({
      Namespace: METRICS_NAMESPACE, MetricName: metricNames.emailSendFailure, Statistic: 'Sum', Period: 300,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }], Threshold: alarmSettings.emailSendFailures,
    });
    expect(alarm('run-failures')).toMatchObject({
      Namespace: METRICS_NAMESPACE, MetricName: metricNames.runFailed, Statistic: 'Sum', Period: 3600,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }], Threshold: alarmSettings.runFailures,
    });
  });

  it('sends the run queues\' dead-letter alarms to the topic too', () => {
    const deadLetterAlarms = stack.runQueues.deadLetterAlarms.map((a) => flat[logicalIdOf(a)]!.Properties!);
    expect(deadLetterAlarms).toHaveLength(2);
    for (const props of deadLetterAlarms) {
      expect(props.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(props.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  it('has one dashboard for the environment, with the alarms and each watched metric', () => {
    const dashboards = Object.values(nested).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]!.Properties!.DashboardName).toBe('tessera-test');
    const body = JSON.stringify(dashboards[0]!.Properties!.DashboardBody);
    for (const text of ['Alarms', '5xx', 'Latency', 'ReadThrottleEvents', 'Errors', 'Throttles', 'Duration', metricNames.loginFailure, metricNames.mfaFailure, metricNames.emailSendFailure, metricNames.runFailed, 'ApproximateNumberOfMessagesVisible']) {
      expect(body, text).toContain(text);
    }
    for (const alarmId of Object.entries(nested).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm').map(([id]) => id)) expect(body).toContain(alarmId);
  });

  it('retains every log group: the functions\' and the API\'s access logs', () => {
    const groups = Object.values(flat).filter((r) => r.Type === 'AWS::Logs::LogGroup');
    expect(groups.length).toBeGreaterThanOrEqual(stack.functions.size + 1);
    for (const group of groups) expect(group.DeletionPolicy).toBe('Retain');
  });
});
