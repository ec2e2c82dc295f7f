/**
 * The stacks of one tenant environment: `Tessera-<env>` in the deploying region, and
 * `Tessera-<env>-edge` in us-east-1 with the CLOUDFRONT-scope web ACL (only there does AWS WAF
 * keep one), whose ARN crosses regions through CDK's cross-region references (infra/edge.ts).
 * Both need a concrete account and region for that.
 */
import type { App, Environment } from 'aws-cdk-lib';
import { EdgeFirewallStack } from './edge';
import { stackName, type StackSettings } from './stack-settings';
import { TesseraStack } from './tessera-stack';

export const EDGE_FIREWALL_REGION = 'us-east-1';

export interface EnvironmentStacks {
  stack: TesseraStack;
  edgeFirewall: EdgeFirewallStack;
}

export function addEnvironmentStacks(app: App, settings: StackSettings, env: Required<Pick<Environment, 'account' | 'region'>>, id = stackName(settings.env)): EnvironmentStacks {
  const edgeFirewall = new EdgeFirewallStack(app, `${id}-edge`, {
    env: { account: env.account, region: EDGE_FIREWALL_REGION },
    description: `Tessera tenant environment ${settings.env}: the edge's web ACL (CLOUDFRONT scope lives in us-east-1)`,
    crossRegionReferences: true,
    terminationProtection: settings.production,
    tenantEnv: settings.env,
    rateLimits: settings.edgeRateLimits,
  });
  const stack = new TesseraStack(app, id, {
    settings,
    description: `Tessera tenant environment ${settings.env}`,
    env,
    crossRegionReferences: true,
    webAclArn: edgeFirewall.firewall.webAcl.attrArn,
  });
  return { stack, edgeFirewall };
}
