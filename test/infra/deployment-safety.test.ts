/**
 * CDK assertions on safe deploys: each function is invoked only through its `live` alias, each
 * alias is shifted by a CodeDeploy deployment group with the environment's config and rolled
 * back on its alarms, and every template stays under CloudFormation's 500 resources (why the
 * functions live in nested stacks).
 */
import { App, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiHandlers, functionHandlers } from '../../functions/handlers';
import { routeList } from '../../functions/routes';
import { DEPLOYMENT_METRICS_NAMESPACE, LIVE_ALIAS_NAME } from '../../infra/deployment-safety';
import { readStackSettings } from '../../infra/stack-settings';
import type { TesseraStack } from '../../infra/tessera-stack';
import { SERVER_ERROR_LOG_MESSAGE } from '../../shared/observability';
import { logicalIdOf, synthStack, type Resource } from '../support/stack-synth';

const handlers = functionHandlers;
const routeHandlers = new Set(apiHandlers);

describe('safe deploys', () => {
  let stack: TesseraStack;
  let resources: Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const aliasId = (handler: string) => logicalIdOf(stack.deployments.get(handler)!.alias);
  const fnId = (handler: string) => logicalIdOf(stack.functions.get(handler)!);

  beforeAll(() => {
    const synthed = synthStack();
    stack = synthed.stack;
    resources = synthed.template.toJSON().Resources as Record<string, Resource>;
  });

  it('gives every function a live alias on its current version', () => {
    expect(stack.deployments.size).toBe(handlers.length);
    for (const handler of handlers) {
      const alias = resources[aliasId(handler)]!;
      expect(alias.Type, handler).toBe('AWS::Lambda::Alias');
      expect(alias.Properties!.Name).toBe(LIVE_ALIAS_NAME);
      expect(alias.Properties!.FunctionName).toEqual({ Ref: fnId(handler) });
      const versionId = (alias.Properties!.FunctionVersion as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      expect(versionId[1]).toBe('Version');
      expect(resources[versionId[0]]).toMatchObject({ Type: 'AWS::Lambda::Version', Properties: { FunctionName: { Ref: fnId(handler) } } });
    }
  });

  it('has no caller invoke a function but through its alias: routes, permissions, the run queue, the dispatch schedule', () => {
    const unqualified = handlers.flatMap((h) => [JSON.stringify({ 'Fn::GetAtt': [fnId(h), 'Arn'] }), JSON.stringify({ Ref: fnId(h) })]);
    const callers = [...ofType('AWS::ApiGatewayV2::Integration'), ...ofType('AWS::Lambda::Permission'), ...ofType('AWS::Lambda::EventSourceMapping'), ...ofType('AWS::Events::Rule')];
    expect(callers.length).toBeGreaterThan(routeList.length * 2);
    for (const [id, caller] of callers) {
      const text = JSON.stringify(caller.Properties);
      for (const ref of unqualified) expect(text, id).not.toContain(ref);
      expect(handlers.some((h) => text.includes(JSON.stringify({ Ref: aliasId(h) }))), id).toBe(true);
    }
    for (const [, integration] of ofType('AWS::ApiGatewayV2::Integration')) {
      expect(handlers.map((h) => JSON.stringify({ Ref: aliasId(h) }))).toContain(JSON.stringify(integration.Properties!.IntegrationUri));
    }
  });

  it('shifts each alias with a deployment group of its own: the config from settings, rollback on failure, stop and alarm', () => {
    const groups = ofType('AWS::CodeDeploy::DeploymentGroup');
    expect(groups).toHaveLength(handlers.length);
    for (const handler of handlers) {
      const alias = resources[aliasId(handler)]!;
      const update = (alias.UpdatePolicy as { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: { Ref: string } } }).CodeDeployLambdaAliasUpdate;
      const group = resources[update.DeploymentGroupName.Ref]!;
      expect(group.Type, handler).toBe('AWS::CodeDeploy::DeploymentGroup');
      expect(group.Properties).toMatchObject({
        DeploymentConfigName: 'CodeDeployDefault.LambdaAllAtOnce',
        AutoRollbackConfiguration: { Enabled: true, Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_REQUEST', 'DEPLOYMENT_STOP_ON_ALARM']) },
        DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
      });
      // The group watches exactly this alias's alarms.
      const watched = (group.Properties!.AlarmConfiguration as { Enabled: boolean; Alarms: { Name: { Ref: string } }[] });
      expect(watched.Enabled).toBe(true);
      expect(watched.Alarms.map((a) => a.Name.Ref).sort()).toEqual(stack.deployments.get(handler)!.alarms.map((a) => logicalIdOf(a)).sort());
    }
  });

  it('canaries in production (10% for five minutes) and takes the config from settings', () => {
    const configs = (settings: Parameters<typeof synthStack>[0]) =>
      new Set(Object.values(synthStack(settings).template.findResources('AWS::CodeDeploy::DeploymentGroup') as Record<string, Resource>).map((g) => JSON.stringify(g.Properties!.DeploymentConfigName)));
    // A production entry that names no config gets the canary.
    const production = { tier: 'production', account: '111111111111', region: 'eu-west-1', emailFrom: 'identity@mail.acme.example', alarms: { emails: ['oncall@acme.example'] } };
    const fromEntry = readStackSettings(new App({ context: { env: 'acme-x', environments: { 'acme-x': production } } }).node);
    expect(configs(fromEntry)).toEqual(new Set([JSON.stringify('CodeDeployDefault.LambdaCanary10Percent5Minutes')]));
    expect(configs({ deploymentConfig: 'LINEAR_10PERCENT_EVERY_1MINUTE' })).toEqual(new Set([JSON.stringify('CodeDeployDefault.LambdaLinear10PercentEvery1Minute')]));
  });

  it('rolls back on any invocation error of the alias, and on any 5xx a route rendered', () => {
    for (const handler of handlers) {
      const alarms = stack.deployments.get(handler)!.alarms.map((a) => resources[logicalIdOf(a)]!.Properties!);
      const errors = alarms.find((a) => a.MetricName === 'Errors');
      expect(errors, handler).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Period: 60, Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
      const dimensions = JSON.stringify(errors!.Dimensions);
      expect(dimensions).toContain('"Name":"Resource"');
      expect(dimensions).toContain(`:${LIVE_ALIAS_NAME}`);
      const serverErrors = alarms.find((a) => a.Namespace === DEPLOYMENT_METRICS_NAMESPACE);
      expect(serverErrors !== undefined, handler).toBe(routeHandlers.has(handler));
      if (!serverErrors) continue;
      expect(serverErrors).toMatchObject({ Threshold: 1, Period: 60, Statistic: 'Sum', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const filter = ofType('AWS::Logs::MetricFilter').find(([, f]) => (f.Properties!.MetricTransformations as { MetricName: string }[])[0]!.MetricName === serverErrors.MetricName)?.[1];
      const logGroupRef = (resources[fnId(handler)]!.Properties!.LoggingConfig as { LogGroup: unknown }).LogGroup;
      expect(filter?.Properties).toMatchObject({ LogGroupName: logGroupRef, FilterPattern: `{ ($.level = "ERROR") && ($.message = "${SERVER_ERROR_LOG_MESSAGE}") }` });
    }
  });

  it('keeps every template (the parent and each nested stack of functions) under 500 resources', () => {
    const templates: Stack[] = [stack, ...stack.node.children.filter((c): c is NestedStack => c instanceof NestedStack)];
    expect(templates.length).toBeGreaterThan(2);
    for (const s of templates) expect(Object.keys(Template.fromStack(s).toJSON().Resources as object).length, s.node.id).toBeLessThan(450);
  });
});
