/**
 * vitest globalSetup of the projects on DynamoDB Local: ONE (in memory) for each such project, its
 * endpoint handed to the test files through `provide`; each file then works in its own table.
 * One JVM instead of one per file keeps the run fast (it takes about a second to start).
 */
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The local host has no CloudWatch and tests read answers, not logs (vitest.config.ts sets
  // these too; here they also hold when a file is run with another config).
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'; // Lambda runs Node 22
  const dynamo = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
