/**
 * One synthesized Tessera stack for CDK assertions, with bundling skipped (no esbuild run):
 * the stack, its template, and the logical id of a construct in it.
 */
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { defaultStackSettings, type StackSettings } from '../../infra/stack-settings';
import { TesseraStack } from '../../infra/tessera-stack';

export interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
}

export const SKIP_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

export function synthStack(settings: Partial<StackSettings> = {}): { app: App; stack: TesseraStack; template: Template } {
  const app = new App({ context: SKIP_BUNDLING });
  const stack = new TesseraStack(app, 'Tessera-test', { settings: { ...defaultStackSettings, env: 'test', ...settings } });
  return { app, stack, template: Template.fromStack(stack) };
}

/** The logical id of a construct's CloudFormation resource (its default child for an L2). */
export function logicalIdOf(stack: TesseraStack, construct: IConstruct): string {
  return stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnElement);
}
