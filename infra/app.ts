/**
 * The CDK app: one stack per tenant environment, each environment an entry of cdk.json's
 * `context.environments` (infra/stack-settings.ts says what an entry holds).
 *   npx cdk synth -c env=acme-prod        npx cdk deploy -c env=acme-prod
 * The stack deploys to the entry's account and region; a development environment without them
 * goes where the CLI's credentials point. `-c nag=false` skips the cdk-nag checks (both packs).
 */
import { App } from 'aws-cdk-lib';
import { applyNagPacks } from './nag-packs';
import { readStackSettings, stackEnvironment, stackName } from './stack-settings';
import { TesseraStack } from './tessera-stack';

const app = new App();
const settings = readStackSettings(app.node);

new TesseraStack(app, stackName(settings.env), {
  settings,
  description: `Tessera tenant environment ${settings.env}`,
  env: stackEnvironment(settings),
});

const nag: unknown = app.node.tryGetContext('nag');
if (nag !== false && nag !== 'false') applyNagPacks(app);

app.synth();
