/**
 * The CDK app: the stacks of one tenant environment (infra/environment-stacks.ts), each
 * environment an entry of cdk.json's `context.environments` (infra/stack-settings.ts says what an
 * entry holds).
 *   npx cdk synth -c env=acme-prod        npx cdk deploy --all -c env=acme-prod
 * The stacks deploy to the entry's account and region; a development environment without them
 * goes where the CLI's credentials point. `-c nag=false` skips the cdk-nag checks (both packs).
 */
import { App } from 'aws-cdk-lib';
import { addEnvironmentStacks } from './environment-stacks';
import { applyNagPacks } from './nag-packs';
import { readStackSettings, stackEnvironment } from './stack-settings';

const app = new App();
const settings = readStackSettings(app.node);

const { account, region } = stackEnvironment(settings);
// The edge's web ACL is in us-east-1 and crosses regions by reference, which needs both.
if (!account || !region) {
  throw new Error(`Environment ${settings.env} needs an account and a region to synthesize: set them in its cdk.json entry, or give the CLI AWS credentials (or CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION)`);
}
addEnvironmentStacks(app, settings, { account, region });

const nag: unknown = app.node.tryGetContext('nag');
if (nag !== false && nag !== 'false') applyNagPacks(app);

app.synth();
