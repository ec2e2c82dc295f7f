/**
 * The CDK app: the stacks of one tenant environment (infra/environment-stacks.ts).
 *   npx cdk synth -c env=acme-prod        npx cdk deploy --all -c env=acme-prod
 * Other context: publicUrl, throttleRate, throttleBurst, logRetentionDays, tracing, nag=false,
 * and the edge, deploy and backup keys (see stack-settings.ts `readStackSettings`). Account and
 * region come from the CLI's usual environment.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addEnvironmentStacks } from './environment-stacks';
import { readStackSettings } from './stack-settings';

const app = new App();
const settings = readStackSettings(app.node);

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
// The edge's web ACL is in us-east-1 and crosses regions by reference, which needs both.
if (!account || !region) throw new Error('Tessera needs an account and a region to synthesize (AWS credentials, or CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION)');
addEnvironmentStacks(app, settings, { account, region });

const nag: unknown = app.node.tryGetContext('nag');
if (nag !== false && nag !== 'false') Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

app.synth();
