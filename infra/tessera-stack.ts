/**
 * One tenant environment of Tessera: the table, the envelope key, the JWT signing seed, and an
 * HTTP API with one function per handler of the route table and one API route per entry.
 * Everything route-shaped is derived from the route table (`functions/routes/`), the table from
 * `shared/store/table.ts`; nothing here lists routes or keys a second time.
 */
import { ArnFormat, CfnOutput, RemovalPolicy, Stack, Tags, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { jobList } from '../functions/jobs';
import { DEFAULT_ROUTE_HANDLER, routeList } from '../functions/routes';
import type { RouteDefinition } from '../shared/http/route';
import { encryptionContextShapes, type EncryptionContextKind } from '../shared/crypto/encryption-contexts';
import { tableDefinition } from '../shared/store/table';
import { RUN_STALL_SECONDS, RUN_STEP_SECONDS, RunQueues } from './discovery-runs';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../shared/observability';
import { DeploymentSafety, type ProtectedFunction } from './deployment-safety';
import { ApiEdge, hostOfEndpoint } from './edge';
import { FunctionAreas } from './function-areas';
import { CONNECTOR_TEST_TIMEOUT_MS, hasBudgetedTimeout } from './function-timeouts';
import { AuditAnchorBucket } from './audit-anchor-bucket';
import { ExportsBucket, exportsDownloadOrigin } from './exports-bucket';
import { auditAppendingHandlers, exportReadingHandlers, exportWritingHandlers, cursorSealingHandlers, emailSendingHandlers, envelopeKeyUses, passwordHashingHandlers, runQueueSendingHandlers, tableFreeHandlers, tableReadOnlyHandlers, tokenIssuingHandlers, type EnvelopeKeyUse } from './handler-capabilities';
import { Observability } from './observability';
import { createRouteFunction, pascalCase } from './route-function';
import { tunableEnvironment, type StackSettings } from './stack-settings';
import { TableBackups } from './table-backups';

export interface TesseraStackProps extends StackProps {
  settings: StackSettings;
  /** The CLOUDFRONT-scope web ACL of the distribution (infra/edge.ts `EdgeFirewallStack`, in us-east-1). */
  webAclArn: string;
}

/**
 * Item-level access only: no Scan (a scan reads every tenant; no use case needs one), no
 * stream or table-management actions. Transactions are authorized per item action.
 */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'] as const;

/**
 * What the Encryption SDK's KMS keyring calls with one (generator) key: GenerateDataKey to
 * encrypt, Decrypt to decrypt. It calls kms:Encrypt only for further keys, and there are none.
 */
export const ENVELOPE_KMS_ACTIONS = { encrypt: 'kms:GenerateDataKey', decrypt: 'kms:Decrypt' } as const;

/**
 * The envelope key's actions for one kind of secret, only for requests whose encryption context
 * has exactly that kind's keys (all present, no other) and its `purpose`, when it has one: the
 * keyring passes the message's context to KMS, so a role cannot open or make another kind's
 * ciphertexts with the same key.
 */
export function envelopeKeyStatement(keyArn: string, kind: EncryptionContextKind, actions: readonly string[]): iam.PolicyStatement {
  const shape = encryptionContextShapes[kind];
  return new iam.PolicyStatement({
    actions: [...actions],
    resources: [keyArn],
    conditions: {
      'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...shape.keys] },
      Null: Object.fromEntries(shape.keys.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
      ...(shape.purpose === undefined ? {} : { StringEquals: { 'kms:EncryptionContext:purpose': shape.purpose } }),
    },
  });
}

/** One statement per kind of secret the handler uses, with the actions it needs for it. */
export function envelopeKeyStatements(keyArn: string, use: EnvelopeKeyUse): iam.PolicyStatement[] {
  const kinds = [...new Set([...use.encrypts, ...use.decrypts])];
  return kinds.map((kind) =>
    envelopeKeyStatement(keyArn, kind, [
      ...(use.encrypts.includes(kind) ? [ENVELOPE_KMS_ACTIONS.encrypt] : []),
      ...(use.decrypts.includes(kind) ? [ENVELOPE_KMS_ACTIONS.decrypt] : []),
    ]),
  );
}

/** Groups route entries by handler module, in table order: one function per handler. */
export function routesByHandler(routes: readonly RouteDefinition[]): Map<string, RouteDefinition[]> {
  const byHandler = new Map<string, RouteDefinition[]>();
  for (const route of routes) {
    const list = byHandler.get(route.handler) ?? [];
    list.push(route);
    byHandler.set(route.handler, list);
  }
  return byHandler;
}

export class TesseraStack extends Stack {
  readonly table: dynamodb.Table;
  readonly envelopeKey: kms.Key;
  readonly signingSecret: secretsmanager.Secret;
  readonly cursorSecret: secretsmanager.Secret;
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  /** The function of each handler module (routes and jobs), by handler name. */
  readonly functions: ReadonlyMap<string, lambda.Function>;
  /** Each function's `live` alias (what its callers invoke), deployment group and rollback alarms, by handler name. */
  readonly deployments: ReadonlyMap<string, ProtectedFunction>;
  readonly runQueues: RunQueues;
  readonly observability: Observability;
  readonly backups: TableBackups;
  readonly originVerifySecret: secretsmanager.Secret;
  readonly edge: ApiEdge;
  readonly auditAnchor: AuditAnchorBucket;
  readonly exportsBucket: ExportsBucket;

  constructor(scope: Construct, id: string, props: TesseraStackProps) {
    // A production stack cannot be deleted by mistake; the props' own value wins when given.
    super(scope, id, { terminationProtection: props.settings.production, ...props });
    const { settings } = props;
    const env = settings.env;
    Tags.of(this).add('project', 'tessera');
    Tags.of(this).add('tessera:env', env);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      // AWS managed key: table access needs no grant on the envelope key, which stays with
      // the few functions that handle secrets.
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      // A DeleteTable by hand (console, CLI) is refused too, not only a stack deletion.
      deletionProtection: true,
    });
    for (const gsi of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: { name: gsi.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.backups = new TableBackups(this, 'Backups', { env, table: this.table, retentionDays: settings.backupRetentionDays });

    this.envelopeKey = new kms.Key(this, 'EnvelopeKey', {
      description: `Tessera ${env}: envelope encryption of secrets at rest (MFA, connections, IdP)`,
      alias: `alias/tessera/${env}`,
      enableKeyRotation: true,
      // The table keeps ciphertexts made under this key: losing it would lose them.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Read only by the functions that issue tokens; verifiers use the public keys published in the table.
    this.signingSecret = new secretsmanager.Secret(this, 'SigningSeed', {
      description: `Tessera ${env}: seed of the Ed25519 JWT signing key (read by token issuers only)`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.signingSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotated by an operator with `npm run tessera -- rotate-signing-key`, which publishes the new public key before putting the new seed, so no token is refused.',
    });
    this.cursorSecret = new secretsmanager.Secret(this, 'CursorSecret', {
      description: `Tessera ${env}: secret of the list cursor keys (AWSPREVIOUS still opens cursors)`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotated by an operator with put-secret-value (a new random value); cursors sealed under AWSPREVIOUS still open.',
    });

    this.api = new apigw.HttpApi(this, 'Api', {
      apiName: `tessera-${env}`,
      description: `Tessera ${env}`,
      createDefaultStage: false,
      // With a custom domain, CloudFront reaches the API there; nothing may go around it.
      disableExecuteApiEndpoint: settings.apiDomain !== undefined,
    });
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.throttle.rateLimit, burstLimit: settings.throttle.burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    // Route throttles (API Gateway answers 429 before a function is invoked) on top of the stage's.
    const routeKeys = new Set([...routeList.map((r) => `${r.method} ${r.path}`), apigw.HttpRouteKey.DEFAULT.key]);
    for (const routeKey of Object.keys(settings.routeThrottles)) {
      if (!routeKeys.has(routeKey)) throw new Error(`routeThrottles names ${routeKey}, which is not a route of the route table`);
    }
    // RouteSettings is a free-form map in CloudFormation's schema: CDK passes its keys as written.
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = Object.fromEntries(
      Object.entries(settings.routeThrottles).map(([routeKey, t]) => [routeKey, { ThrottlingRateLimit: t.rateLimit, ThrottlingBurstLimit: t.burstLimit }]),
    );

    if (settings.apiDomain) {
      const domainName = new apigw.DomainName(this, 'ApiDomain', {
        domainName: settings.apiDomain.name,
        certificate: acm.Certificate.fromCertificateArn(this, 'ApiCertificate', settings.apiDomain.certificateArn),
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      });
      new apigw.ApiMapping(this, 'ApiMapping', { api: this.api, domainName, stage: this.stage });
      new CfnOutput(this, 'ApiDomainTarget', { value: domainName.regionalDomainName, description: `CNAME ${settings.apiDomain.name} to this` });
    }
    // Sent by CloudFront to the API, so a function can tell a request through the edge (infra/edge.ts).
    this.originVerifySecret = new secretsmanager.Secret(this, 'OriginVerifySecret', {
      description: `Tessera ${env}: the value CloudFront sends to the API in x-tessera-origin-verify`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'CloudFront and the functions take the value at deploy (a dynamic reference), so a rotation is a new secret deployed once (README, "Edge"); meanwhile requests count against the edge address, which only loosens per-IP limits.',
    });
    this.edge = new ApiEdge(this, 'Edge', {
      env,
      originDomainName: settings.apiDomain?.name ?? hostOfEndpoint(this.api.apiEndpoint),
      originVerifySecret: this.originVerifySecret,
      webAclArn: props.webAclArn,
      edgeDomain: settings.domain,
      // The console downloads an export by following its content's redirect to the bucket.
      consoleConnectSources: [exportsDownloadOrigin(env)],
    });

    // Every audit append records its chain's head here, outside the table (README, "Tamper-evident audit").
    this.auditAnchor = new AuditAnchorBucket(this, 'AuditAnchor', { env, retentionDays: settings.auditAnchorRetentionDays, logBucket: this.edge.logBucket });
    // Export files, kept a day (shared/exports/export-files.ts).
    this.exportsBucket = new ExportsBucket(this, 'Exports', { env, logBucket: this.edge.logBucket });

    // The issuer of access tokens and the base of SSO redirect URIs: the edge's address. It
    // creates no cycle: the distribution depends on the API, integrations on the functions.
    const publicUrl = settings.publicUrl ?? this.edge.url;
    const environment: Record<string, string> = {
      TESSERA_STAGE: 'aws',
      TESSERA_TABLE: this.table.tableName,
      TESSERA_SIGNING_KEY_SECRET_ARN: this.signingSecret.secretArn,
      TESSERA_CURSOR_KEY_SECRET_ARN: this.cursorSecret.secretArn,
      TESSERA_KMS_KEY_ARN: this.envelopeKey.keyArn,
      TESSERA_AUDIT_ANCHOR_BUCKET: this.auditAnchor.bucketName,
      TESSERA_EXPORTS_BUCKET: this.exportsBucket.bucketName,
      TESSERA_PUBLIC_URL: publicUrl,
      TESSERA_EMAIL_FROM: settings.emailFrom.header,
      TESSERA_RUN_STALL_SECONDS: String(RUN_STALL_SECONDS),
      // Stated here, not left to the config default, because connections-test's timeout is sized from it.
      TESSERA_CONNECTOR_TEST_TIMEOUT_MS: String(CONNECTOR_TEST_TIMEOUT_MS),
      // A dynamic reference: CloudFormation puts the value into the function's configuration.
      TESSERA_ORIGIN_VERIFY_SECRET: this.originVerifySecret.secretValue.unsafeUnwrap(),
      ...(settings.sesConfigurationSet ? { TESSERA_SES_CONFIGURATION_SET: settings.sesConfigurationSet } : {}),
      ...tunableEnvironment(settings),
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      NODE_OPTIONS: '--enable-source-maps',
    };

    /** The API's routes by route key, for the stage's route settings to wait for. */
    const apiRoutes = new Map<string, apigw.HttpRoute>();
    // Each index by name (from tableDefinition), so no statement needs a wildcard.
    const indexArns = tableDefinition.globalSecondaryIndexes.map((gsi) => `${this.table.tableArn}/index/${gsi.indexName}`);
    const functions = new Map<string, lambda.Function>();
    const deployments = new Map<string, ProtectedFunction>();
    const areas = new FunctionAreas(this, env);
    const deploymentSafety = new DeploymentSafety(this, 'DeploymentSafety', { env, deploymentConfig: settings.deploymentConfig });
    // SES authorizes SendEmail on the identity that is verified: the address or its domain.
    const sesArn = (resource: string) => this.formatArn({ service: 'ses', resource, resourceName: undefined, arnFormat: ArnFormat.NO_RESOURCE_NAME });
    const sendEmailStatement = new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [
        sesArn(`identity/${settings.emailFrom.domain}`),
        sesArn(`identity/${settings.emailFrom.address}`),
        ...(settings.sesConfigurationSet ? [sesArn(`configuration-set/${settings.sesConfigurationSet}`)] : []),
      ],
      conditions: { StringEquals: { 'ses:FromAddress': settings.emailFrom.address } },
    });
    this.runQueues = new RunQueues(this, 'Runs', { env });
    const runQueueEnvironment = { TESSERA_RUN_QUEUE_URL: this.runQueues.queue.queueUrl };

    /** What every function gets, route or job: its table access (none for a table-free one), and the grants its code needs. */
    const grantCapabilities = (handler: string, role: iam.Role) => {
      if (!tableFreeHandlers.has(handler)) {
        role.addToPolicy(new iam.PolicyStatement({ actions: [...TABLE_READ_ACTIONS], resources: [this.table.tableArn, ...indexArns] }));
        if (!tableReadOnlyHandlers.has(handler)) role.addToPolicy(new iam.PolicyStatement({ actions: [...TABLE_WRITE_ACTIONS], resources: [this.table.tableArn] }));
      }
      const keyUse = envelopeKeyUses.get(handler);
      if (keyUse) for (const statement of envelopeKeyStatements(this.envelopeKey.keyArn, keyUse)) role.addToPolicy(statement);
      if (emailSendingHandlers.has(handler)) role.addToPolicy(sendEmailStatement);
      if (runQueueSendingHandlers.has(handler)) role.addToPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.runQueues.queue.queueArn] }));
      if (auditAppendingHandlers.has(handler)) {
        role.addToPolicy(this.auditAnchor.putStatement());
        // The bucket is named, not referenced: the function must not run before it exists.
        role.node.addDependency(this.auditAnchor.bucket);
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::tessera-${env}-anchors-<AWS::AccountId>/*]`,
          reason: 'The audit anchor takes one object per recorded chain head, keyed by tenant, chain and seq: s3:PutObject alone (no read, no delete) on the anchor bucket\'s objects, which Object Lock keeps in compliance mode.',
        });
      }
      for (const [handlers, statement, what] of [
        [exportWritingHandlers, () => this.exportsBucket.writeStatement(), 's3:PutObject and s3:AbortMultipartUpload (no read, no list, no delete)'],
        [exportReadingHandlers, () => this.exportsBucket.readStatement(), 's3:GetObject alone (what the URLs it signs may do)'],
      ] as const) {
        if (!handlers.has(handler)) continue;
        role.addToPolicy(statement());
        role.node.addDependency(this.exportsBucket.bucket);
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::tessera-${env}-exports-<AWS::AccountId>/*]`,
          reason: `Export files are one object per export, keyed by tenant, workspace and export id: ${what} on the exports bucket's objects.`,
        });
      }
    };
    const environmentOf = (handler: string) => (runQueueSendingHandlers.has(handler) ? { ...environment, ...runQueueEnvironment } : environment);

    // The environment's memory and timeout per class of function; budgeted timeouts stay as budgeted.
    const routeFunctionSizing = (handler: string) => {
      const hashesPasswords = passwordHashingHandlers.has(handler);
      return {
        memorySize: hashesPasswords ? settings.memory.passwordHashingMb : settings.memory.defaultMb,
        ...(hasBudgetedTimeout(handler) ? {} : { timeoutSeconds: hashesPasswords ? settings.timeouts.passwordHashingSeconds : settings.timeouts.routeSeconds }),
      };
    };

    for (const [handler, routes] of routesByHandler(routeList)) {
      const { fn, role, logGroup } = createRouteFunction(areas.of(routes[0]!.tag), {
        handler,
        routes,
        env,
        environment: environmentOf(handler),
        logRetention: settings.logRetention,
        tracing: settings.tracing,
        ...routeFunctionSizing(handler),
        // Argon2id at 1024 MB: a flood of sign-ins cannot take the account's whole concurrency.
        ...(passwordHashingHandlers.has(handler) ? { reservedConcurrency: settings.passwordHashingConcurrency } : {}),
      });
      grantCapabilities(handler, role);
      // List routes seal and open cursors.
      if (cursorSealingHandlers.has(handler)) role.addToPolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.cursorSecret.secretArn] }));
      // Only issuers sign; every route verifies with the public keys published in the table.
      if (tokenIssuingHandlers.has(handler)) role.addToPolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.signingSecret.secretArn] }));

      const deployment = deploymentSafety.protect({ handler, fn, logGroup, servesRoutes: true });
      const integration = new HttpLambdaIntegration(`${pascalCase(handler)}Integration`, deployment.alias);
      for (const route of routes) {
        for (const added of this.api.addRoutes({ path: route.path, methods: [apigw.HttpMethod[route.method]], integration })) apiRoutes.set(`${route.method} ${route.path}`, added);
      }
      functions.set(handler, fn);
      deployments.set(handler, deployment);
    }

    // What no route takes goes to the `$default` route's function, which answers problem+json
    // (404, or 405 with Allow) from the route table, as the local host does; without it API
    // Gateway would answer its own `{"message":"Not Found"}`.
    {
      const handler = DEFAULT_ROUTE_HANDLER;
      const { fn, role, logGroup } = createRouteFunction(areas.of('service'), {
        handler,
        routes: [],
        description: 'Answers a request that no route takes: problem+json 404, or 405 with Allow',
        env,
        environment: environmentOf(handler),
        logRetention: settings.logRetention,
        tracing: settings.tracing,
        ...routeFunctionSizing(handler),
      });
      grantCapabilities(handler, role);
      const deployment = deploymentSafety.protect({ handler, fn, logGroup, servesRoutes: true });
      const defaultRoute = new apigw.HttpRoute(this.api, 'DefaultRoute', {
        httpApi: this.api,
        routeKey: apigw.HttpRouteKey.DEFAULT,
        integration: new HttpLambdaIntegration(`${pascalCase(handler)}Integration`, deployment.alias),
      });
      apiRoutes.set(apigw.HttpRouteKey.DEFAULT.key, defaultRoute);
      functions.set(handler, fn);
      deployments.set(handler, deployment);
    }
    // A stage whose RouteSettings name a route that does not exist yet fails to create ("Unable
    // to find Route by key … within the provided RouteSettings"), and nothing else orders the
    // stage after the routes: it must wait for each route it throttles.
    for (const routeKey of Object.keys(settings.routeThrottles)) this.stage.node.addDependency(apiRoutes.get(routeKey)!);

    // Jobs: no route, no caller to authenticate, no list to answer, a trigger of their own.
    for (const job of jobList) {
      const worker = job.trigger.kind === 'queue';
      const jobScope = areas.of('jobs');
      const { fn, role, logGroup } = createRouteFunction(jobScope, {
        handler: job.handler,
        routes: [],
        description: job.description,
        env,
        environment: { ...environmentOf(job.handler), ...(worker ? { TESSERA_RUN_STEP_SECONDS: String(RUN_STEP_SECONDS) } : {}) },
        logRetention: settings.logRetention,
        tracing: settings.tracing,
        memorySize: worker ? settings.memory.runWorkerMb : settings.memory.defaultMb,
      });
      grantCapabilities(job.handler, role);
      const deployment = deploymentSafety.protect({ handler: job.handler, fn, logGroup, servesRoutes: false });
      if (job.trigger.kind === 'queue') this.runQueues.attachWorker(deployment.alias);
      else this.runQueues.attachDispatcher(jobScope, deployment.alias, job.trigger.expression);
      functions.set(job.handler, fn);
      deployments.set(job.handler, deployment);
    }
    this.functions = functions;
    this.deployments = deployments;
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'Authentication is the handlers\' middleware (JWT or PAT per the route table; some routes are public by contract).',
    });

    this.observability = new Observability(this, 'Observability', {
      env,
      alarms: settings.alarms,
      api: this.api,
      table: this.table,
      functions,
      otherAlarms: this.runQueues.deadLetterAlarms,
    });

    new CfnOutput(this, 'ApiUrl', { value: publicUrl, description: 'TESSERA_PUBLIC_URL' });
    new CfnOutput(this, 'DistributionDomainName', { value: this.edge.distribution.distributionDomainName, description: settings.domain ? `CNAME ${settings.domain.name} to this` : 'The edge (CloudFront) host name' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TESSERA_TABLE' });
    new CfnOutput(this, 'KmsKeyArn', { value: this.envelopeKey.keyArn, description: 'TESSERA_KMS_KEY_ARN' });
    new CfnOutput(this, 'SigningSecretArn', { value: this.signingSecret.secretArn, description: 'TESSERA_SIGNING_KEY_SECRET_ARN' });
    new CfnOutput(this, 'AuditAnchorBucket', { value: this.auditAnchor.bucketName, description: 'TESSERA_AUDIT_ANCHOR_BUCKET' });
    new CfnOutput(this, 'CursorSecretArn', { value: this.cursorSecret.secretArn, description: 'TESSERA_CURSOR_KEY_SECRET_ARN' });
  }
}
