/**
 * The cdk-nag rule packs every synth is checked against: AWS Solutions and Serverless. A
 * finding stops the synth unless it is acknowledged where the resource is made
 * (`Validations.of(construct).acknowledge({ id, reason })`), always with its reason. The app
 * and the tests apply the same packs from here.
 */
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';

export function applyNagPacks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
}
