/**
 * One Lambda function for one handler module (`functions/<handler>.ts`): its own role, its own
 * log group, and a local esbuild bundle (ESM, minified, source maps) for arm64 on Node 22.
 * Exported apart from the stack so a test can bundle a single function for real.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/http/route';
import { PASSWORD_NATIVE_MODULE, SAML_SCHEMA_VALIDATOR_MODULE, passwordHashingHandlers, samlSchemaValidatorHandlers } from './handler-capabilities';

/** The repository root (this file lives in `<root>/infra`). */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export function handlerEntry(handler: string): string {
  return path.join(projectRoot, 'functions', `${handler}.ts`);
}

/** `auth-login` → `AuthLogin`: construct ids derived from handler names. */
export function pascalCase(name: string): string {
  return name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

/**
 * `nodeModules` runs `npm ci` on the host, which would install the host's (linux-x64) binary
 * of the native module; these settings make npm pick the arm64 glibc build that Lambda runs.
 */
export const ARM64_NPM_ENVIRONMENT = {
  npm_config_cpu: 'arm64',
  npm_config_os: 'linux',
  npm_config_libc: 'glibc',
  npm_config_prefer_offline: 'true',
} as const;

/** ESM bundles still meet CommonJS dependencies that call `require`; give them one. */
const CREATE_REQUIRE_BANNER = "import { createRequire as __tesseraCreateRequire } from 'node:module'; const require = __tesseraCreateRequire(import.meta.url);";

export interface RouteFunctionProps {
  handler: string;
  /** The routes served by this handler (usually one); none for a job (queue consumer, scheduled tick). */
  routes: readonly RouteDefinition[];
  /** What the function does, when it has no route to describe it. */
  description?: string;
  /** Default 10 s (API Gateway answers within 29 s); jobs set their own. */
  timeoutSeconds?: number;
  /** Default 256 MB (1024 MB for Argon2id). */
  memorySize?: number;
  env: string;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  tracing: boolean;
}

export interface RouteFunction {
  fn: NodejsFunction;
  role: iam.Role;
  logGroup: logs.LogGroup;
}

export function createRouteFunction(scope: Construct, props: RouteFunctionProps): RouteFunction {
  const id = pascalCase(props.handler);
  const needsNativeModule = passwordHashingHandlers.has(props.handler);
  const nodeModules = [...(needsNativeModule ? [PASSWORD_NATIVE_MODULE] : []), ...(samlSchemaValidatorHandlers.has(props.handler) ? [SAML_SCHEMA_VALIDATOR_MODULE] : [])];

  const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
    retention: props.logRetention,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  // A role of its own, without the managed AWSLambdaBasicExecutionRole (which writes to any
  // log group): the stack grants exactly what this handler needs.
  const role = new iam.Role(scope, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Tessera ${props.env}: ${props.handler}`,
  });
  logGroup.grantWrite(role);

  const fn = new NodejsFunction(scope, `${id}Function`, {
    entry: handlerEntry(props.handler),
    handler: 'handler',
    projectRoot,
    depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
    runtime: LAMBDA_RUNTIME,
    architecture: LAMBDA_ARCHITECTURE,
    // Argon2id (m = 19 MiB) is CPU-bound and Lambda CPU grows with memory.
    memorySize: props.memorySize ?? (needsNativeModule ? 1024 : 256),
    timeout: Duration.seconds(props.timeoutSeconds ?? 10),
    description: `Tessera ${props.env}: ${props.description ?? props.routes.map((r) => `${r.method} ${r.path}`).join(', ')}`,
    role,
    logGroup,
    tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
    environment: props.environment,
    bundling: {
      format: OutputFormat.ESM,
      target: 'node22',
      mainFields: ['module', 'main'],
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      banner: CREATE_REQUIRE_BANNER,
      // Bundle the AWS SDK too: the versions in the lock file, not whatever the runtime ships.
      externalModules: [],
      // Only when needed: any `nodeModules` (even empty) makes CDK run `npm ci` in the asset.
      ...(nodeModules.length ? { nodeModules, environment: { ...ARM64_NPM_ENVIRONMENT } } : {}),
      forceDockerBundling: false,
    },
  });
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-L1',
    reason: 'Node 22 is the runtime the project is built and tested for (DESIGN.md); a runtime upgrade is a deliberate change.',
  });
  return { fn, role, logGroup };
}
