/**
 * One synthesized Tessera stack for CDK assertions, with bundling skipped (no esbuild run).
 * The functions live in nested stacks (infra/function-areas.ts); `flatTemplate` puts their
 * resources back into the parent's template, with each parameter replaced by what the parent
 * passes and each nested output by its value, so assertions read one template as if there
 * were no nesting (a function's `TESSERA_TABLE` is `{ Ref: <table> }`, a route's target the
 * alias itself).
 */
import { App, NestedStack, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { defaultStackSettings, type StackSettings } from '../../infra/stack-settings';
import type { EdgeFirewallStack } from '../../infra/edge';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../infra/environment-stacks';
import type { TesseraStack } from '../../infra/tessera-stack';

export interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  UpdatePolicy?: Record<string, unknown>;
  DependsOn?: string[];
}

interface TemplateJson {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, { Value: unknown }>;
  [section: string]: unknown;
}

export const SKIP_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

/** Replaces, anywhere in `value`, each object `replace` returns a replacement for. */
function substitute(value: unknown, replace: (node: Record<string, unknown>) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, replace));
  if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    const replacement = replace(node);
    if (replacement !== undefined) return replacement;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, replace)]));
  }
  return value;
}

export function flatTemplate(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON() as TemplateJson;
  const resources: Record<string, Resource> = {};
  const outputs = new Map<string, unknown>();
  const nestedIds = new Set<string>();
  for (const child of stack.node.children) {
    if (!(child instanceof NestedStack)) continue;
    const nestedId = stack.getLogicalId(child.nestedStackResource!);
    nestedIds.add(nestedId);
    const passed = (parent.Resources[nestedId]!.Properties!.Parameters ?? {}) as Record<string, unknown>;
    const nested = substitute(Template.fromStack(child).toJSON(), (node) => {
      const keys = Object.keys(node);
      return keys.length === 1 && typeof node.Ref === 'string' && Object.hasOwn(passed, node.Ref) ? passed[node.Ref] : undefined;
    }) as TemplateJson;
    Object.assign(resources, nested.Resources);
    for (const [name, output] of Object.entries(nested.Outputs ?? {})) outputs.set(`${nestedId}.Outputs.${name}`, output.Value);
  }
  // A nested stack's output read by the parent, or passed by it to another nested stack (the alarms' stack reads the functions').
  const resolveOutputs = (node: Record<string, unknown>) => {
    const getAtt = node['Fn::GetAtt'];
    return Array.isArray(getAtt) && Object.keys(node).length === 1 ? outputs.get(`${String(getAtt[0])}.${String(getAtt[1])}`) : undefined;
  };
  const flat = substitute(parent, resolveOutputs) as TemplateJson;
  for (const id of nestedIds) delete flat.Resources[id];
  return Template.fromJSON({ ...flat, Resources: { ...flat.Resources, ...(substitute(resources, resolveOutputs) as Record<string, Resource>) } }, { skipCyclicalDependenciesCheck: true });
}

/** An account and a region for the tests' stacks (the edge's cross-region reference needs both). */
export const TEST_ENVIRONMENT = { account: '123456789012', region: 'eu-west-1' } as const;

/** The environment's stacks as the app makes them (infra/environment-stacks.ts), with these settings over the defaults. */
export function testEnvironmentStacks(settings: Partial<StackSettings> = {}, context: Record<string, unknown> = {}): { app: App } & EnvironmentStacks {
  const app = new App({ context: { ...SKIP_BUNDLING, ...context } });
  return { app, ...addEnvironmentStacks(app, { ...defaultStackSettings, env: 'test', ...settings }, TEST_ENVIRONMENT, 'Tessera-test') };
}

export function synthStack(settings: Partial<StackSettings> = {}): { app: App; stack: TesseraStack; edgeFirewall: EdgeFirewallStack; template: Template } {
  const { app, stack, edgeFirewall } = testEnvironmentStacks(settings);
  return { app, stack, edgeFirewall, template: flatTemplate(stack) };
}

/** The logical id of a construct's CloudFormation resource (its default child for an L2), in its own stack's template. */
export function logicalIdOf(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return element.stack.getLogicalId(element);
}
