/**
 * The functions live in nested stacks, one per area of the API (the route's OpenAPI tag, and
 * one for the jobs), because a CloudFormation stack holds at most 500 resources: each function
 * brings its role, policy, log group, version, `live` alias, deployment group and alarms, which
 * for 66 functions is far more than one template can take. The table, keys, secrets, queues,
 * API and routes stay in the parent; references across are parameters and outputs CDK makes.
 */
import { NestedStack, type Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { pascalCase } from './route-function';

export class FunctionAreas {
  private readonly stacks = new Map<string, NestedStack>();

  constructor(
    private readonly parent: Stack,
    private readonly env: string,
  ) {}

  /** The nested stack of one area, made the first time a function of it needs it. */
  of(area: string): Construct {
    const existing = this.stacks.get(area);
    if (existing) return existing;
    const stack = new NestedStack(this.parent, `${pascalCase(area)}Functions`, { description: `Tessera ${this.env}: the ${area} functions` });
    this.stacks.set(area, stack);
    return stack;
  }
}
