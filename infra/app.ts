/**
 * The CDK app: one stack per tenant environment.
 *   npx cdk synth -c env=acme-prod        npx cdk deploy -c env=acme-prod
 * Other context: publicUrl, throttleRate, throttleBurst, logRetentionDays, tracing, nag=false
 * (see stack-settings.ts). Account and region come from the CLI's usual environment.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readStackSettings, stackName } from './stack-settings';
import { TesseraStack } from './tessera-stack';

const app = new App();
const settings = readStackSettings(app.node);

new TesseraStack(app, stackName(settings.env), {
  settings,
  description: `Tessera tenant environment ${settings.env}`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

const nag: unknown = app.node.tryGetContext('nag');
if (nag !== false && nag !== 'false') Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

app.synth();
