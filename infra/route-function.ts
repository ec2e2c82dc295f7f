/**
 * One Lambda function for one handler module (`functions/<handler>.ts`): its own role, its own
 * log group, and a local esbuild bundle (infra/bundle-options.ts `lambdaCode`) for arm64 on Node 22.
 * Exported apart from the stack so a test can bundle a single function for real.
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/http/route';
import { lambdaCode, lambdaLayerCode, modulesFromLayer } from './bundle-options';
import { functionTimeoutSeconds } from './function-timeouts';
import { passwordHashingHandlers } from './handler-capabilities';

/** `auth-login` → `AuthLogin`: construct ids derived from handler names. */
export function pascalCase(name: string): string {
  return name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** The stack at the top of a construct's nested stacks (the tenant environment's stack, infra/function-areas.ts). */
export function rootStackOf(scope: Construct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}

export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

export interface RouteFunctionProps {
  handler: string;
  /** The routes served by this handler (usually one); none for a job (queue consumer, scheduled tick). */
  routes: readonly RouteDefinition[];
  /** What the function does, when it has no route to describe it. */
  description?: string;
  /** Default 256 MB (1024 MB for Argon2id). */
  memorySize?: number;
  /** Default: `functionTimeoutSeconds` (infra/function-timeouts.ts). */
  timeoutSeconds?: number;
  /** Reserved concurrency: at most this many at once, and always this many available. */
  reservedConcurrency?: number;
  env: string;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  tracing: boolean;
}

/**
 * The stack's one layer of shared packages (in the top stack, whichever nested stack asks) (`LAYER_PACKAGES`: the Argon2 native module for
 * arm64), made by the first function that needs it.
 */
export function sharedPackagesLayer(scope: Construct): lambda.LayerVersion {
  const stack = rootStackOf(scope);
  const existing = stack.node.tryFindChild('SharedPackagesLayer');
  if (existing) return existing as lambda.LayerVersion;
  return new lambda.LayerVersion(stack, 'SharedPackagesLayer', {
    code: lambdaLayerCode(),
    compatibleRuntimes: [LAMBDA_RUNTIME],
    compatibleArchitectures: [LAMBDA_ARCHITECTURE],
    description: 'Tessera: packages shared by several functions (the Argon2 native module for arm64)',
  });
}

export interface RouteFunction {
  fn: lambda.Function;
  role: iam.Role;
  logGroup: logs.LogGroup;
}

export function createRouteFunction(scope: Construct, props: RouteFunctionProps): RouteFunction {
  const id = pascalCase(props.handler);
  const needsNativeModule = passwordHashingHandlers.has(props.handler);

  // Retained: what a function logged stays readable after a stack is deleted or the function replaced.
  const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
    retention: props.logRetention,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  // A role of its own, without the managed AWSLambdaBasicExecutionRole (which writes to any
  // log group): the stack grants exactly what this handler needs.
  const role = new iam.Role(scope, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Tessera ${props.env}: ${props.handler}`,
  });
  logGroup.grantWrite(role);

  const fn = new lambda.Function(scope, `${id}Function`, {
    code: lambdaCode(props.handler, rootStackOf(scope).stackName, { tracing: props.tracing }),
    handler: 'index.handler',
    runtime: LAMBDA_RUNTIME,
    architecture: LAMBDA_ARCHITECTURE,
    // Argon2id (m = 19 MiB) is CPU-bound and Lambda CPU grows with memory.
    memorySize: props.memorySize ?? (needsNativeModule ? 1024 : 256),
    ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
    timeout: Duration.seconds(props.timeoutSeconds ?? functionTimeoutSeconds(props.handler)),
    description: `Tessera ${props.env}: ${props.description ?? props.routes.map((r) => `${r.method} ${r.path}`).join(', ')}`,
    role,
    logGroup,
    tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
    environment: props.environment,
    layers: modulesFromLayer(props.handler).length ? [sharedPackagesLayer(scope)] : [],
  });
  const runtimeReason = 'Node 22 is the runtime the project is built and tested for (DESIGN.md); a runtime upgrade is a deliberate change.';
  Validations.of(fn).acknowledge(
    { id: 'AwsSolutions-L1', reason: runtimeReason },
    { id: 'Serverless-LambdaLatestVersion', reason: runtimeReason },
    {
      id: 'Serverless-LambdaDLQ',
      reason: 'No function is invoked asynchronously without a place for failures: API Gateway invokes synchronously (the client gets the error), the run worker\'s failed messages go to the run queue\'s dead-letter queue, and the dispatcher\'s undeliverable ticks to the EventBridge target\'s dead-letter queue.',
    },
  );
  if (props.tracing) {
    // Lambda adds xray:PutTraceSegments and xray:PutTelemetryRecords on "*" to the role's policy.
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray\'s PutTraceSegments and PutTelemetryRecords take no resource ARN, so active tracing needs them on "*"; nothing else in these roles is on "*" (test/infra/stack.test.ts checks both).',
    });
  } else {
    Validations.of(fn).acknowledge({
      id: 'Serverless-LambdaTracing',
      reason: 'Tracing is a per-environment setting (cdk.json `tracing`), off where its cost is not wanted; environments that trace get Tracing.ACTIVE and the Powertools Tracer.',
    });
  }
  return { fn, role, logGroup };
}
