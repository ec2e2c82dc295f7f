/**
 * CDK assertions on the synthesized stack (bundling skipped): the table matches
 * `tableDefinition`, every route-table entry becomes one API route wired to its handler's
 * function, and each function's role holds exactly what it needs and nothing on `*`.
 */
import { App, type CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { SKIP_BUNDLING, TEST_ENVIRONMENT, flatTemplate, testEnvironmentStacks } from '../support/stack-synth';
import { addEnvironmentStacks } from '../../infra/environment-stacks';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiHandlers, functionHandlers } from '../../functions/handlers';
import { jobList } from '../../functions/jobs';
import { DEFAULT_ROUTE_HANDLER, routeList } from '../../functions/routes';
import { createTableInput, tableDefinition } from '../../shared/store/table';
import { RUN_QUEUE_MAX_RECEIVE_COUNT, RUN_QUEUE_VISIBILITY_SECONDS, RUN_STALL_SECONDS, RUN_WORKER_TIMEOUT_SECONDS } from '../../infra/discovery-runs';
import { auditAppendingHandlers, exportReadingHandlers, exportWritingHandlers, cursorSealingHandlers, emailSendingHandlers, envelopeKeyUses, passwordHashingHandlers, runQueueSendingHandlers, tableFreeHandlers, tableReadOnlyHandlers, tokenIssuingHandlers } from '../../infra/handler-capabilities';
import { encryptionContextShapes } from '../../shared/crypto/encryption-contexts';
import { applyNagPacks } from '../../infra/nag-packs';
import { defaultStackSettings, readStackSettings, stackEnvironment, type StackSettings } from '../../infra/stack-settings';
import { cdkJsonContext } from '../support/cdk-json-context';
import { functionTimeoutSeconds } from '../../infra/function-timeouts';
import { CONNECTION_TEST_WRITE_RESERVE_MS } from '../../shared/connections/connection-test-budget';
import { JOB_SAFETY_MARGIN_MS } from '../../shared/jobs/job';
import { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS, type TesseraStack } from '../../infra/tessera-stack';

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties?: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const jobHandlers = jobList.map((j) => j.handler);
const handlers = functionHandlers;

function synth(settings: Partial<StackSettings> = {}, context: Json = {}) {
  const { app, stack } = testEnvironmentStacks(settings, context);
  // The functions' nested stacks folded into one template (test/support/stack-synth.ts).
  return { app, stack, template: flatTemplate(stack) };
}

const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
/** The audit anchor bucket's objects, as a function's policy names them (pseudo parameters only). */
const anchorObjects = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::tessera-test-anchors-', { Ref: 'AWS::AccountId' }, '/*']] };
/** The exports bucket's objects, likewise. */
const exportObjects = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::tessera-test-exports-', { Ref: 'AWS::AccountId' }, '/*']] };

describe('TesseraStack', () => {
  let stack: TesseraStack;
  let template: Template;
  let resources: Record<string, Resource>;
  const logicalId = (element: unknown) => (element as CfnElement).stack.getLogicalId(element as CfnElement);
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const fnId = (handler: string) => logicalId(stack.functions.get(handler)!.node.defaultChild);
  /** The `live` alias callers invoke (infra/deployment-safety.ts): `Ref` of an alias is its ARN. */
  const aliasRef = (handler: string) => ({ Ref: logicalId(stack.deployments.get(handler)!.alias.node.defaultChild) });
  const roleIdOf = (handler: string) => (resources[fnId(handler)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statementsOfRole = (roleId: string): Statement[] =>
    ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties!.Roles as Json[]).some((r) => r.Ref === roleId))
      .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
  /** CDK's BucketDeployment function (the console's build copied at deploy) and its role. */
  const deploymentRoleId = () => logicalId(stack.edge.console.deploymentRole!.node.defaultChild);
  const deploymentFunctionId = () => ofType('AWS::Lambda::Function').find(([, r]) => JSON.stringify(r.Properties!.Role).includes(deploymentRoleId()))![0];
  const actionsOn = (statements: Statement[], prefix: string) => statements.flatMap((s) => asArray(s.Action)).filter((a) => a.startsWith(prefix));

  beforeAll(() => {
    ({ stack, template } = synth());
    resources = template.toJSON().Resources as Record<string, Resource>;
  });

  describe('table', () => {
    it('is built from tableDefinition: keys, GSI, attribute types, on-demand', () => {
      const expected = createTableInput('ignored');
      const [[, table]] = ofType('AWS::DynamoDB::Table') as [[string, Resource]];
      const props = table.Properties!;
      expect(props.KeySchema).toEqual(expected.KeySchema);
      expect(props.BillingMode).toBe('PAY_PER_REQUEST');
      const byName = (a: { AttributeName?: string }, b: { AttributeName?: string }) => (a.AttributeName ?? '').localeCompare(b.AttributeName ?? '');
      expect([...(props.AttributeDefinitions as Json[])].sort(byName)).toEqual([...expected.AttributeDefinitions!].sort(byName));
      expect(props.GlobalSecondaryIndexes).toEqual(expected.GlobalSecondaryIndexes);
      expect((props.GlobalSecondaryIndexes as Json[]).map((g) => g.IndexName)).toEqual(tableDefinition.globalSecondaryIndexes.map((g) => g.indexName));
    });

    it('has TTL, point-in-time recovery, encryption, and is retained', () => {
      template.resourceCountIs('AWS::DynamoDB::Table', 1);
      template.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
        Properties: {
          TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          SSESpecification: { SSEEnabled: true },
        },
      });
    });

    it('is tagged with the environment', () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', { Tags: [{ Key: 'project', Value: 'tessera' }, { Key: 'tessera:env', Value: 'test' }] });
    });
  });

  it('has one retained KMS key with rotation for envelopes (the others are the backup vault\'s and the alarm topic\'s), and generated secrets: the signing seed and the cursor secret', () => {
    template.resourceCountIs('AWS::KMS::Key', 3);
    expect(resources[logicalId(stack.envelopeKey.node.defaultChild)]).toMatchObject({ DeletionPolicy: 'Retain', Properties: { EnableKeyRotation: true } });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/tessera/test' });
    // And the origin-verify secret of the edge (test/infra/edge.test.ts).
    template.resourceCountIs('AWS::SecretsManager::Secret', 3);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  describe('functions', () => {
    it('one per handler of the route and job tables, Node 22 on arm64', () => {
      expect(handlers.length).toBeGreaterThan(0);
      // Besides them, only CDK's reader of the edge's cross-region reference (the web ACL's ARN)
      // and CDK's function that copies the console's build into its bucket at deploy.
      const others = ofType('AWS::Lambda::Function').filter(([id]) => !handlers.map(fnId).includes(id));
      expect(others.map(([id]) => id).sort()).toEqual([expect.stringMatching(/^CustomCDKBucketDeployment/), expect.stringMatching(/^CustomCrossRegionExportReader/)]);
      expect([...stack.functions.keys()].sort()).toEqual([...handlers].sort());
      for (const [, fn] of handlers.map((h) => [h, resources[fnId(h)]!] as const)) {
        expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
      }
    });

    it('one layer of shared packages, for arm64 on Node 22, taken by exactly the password-hashing functions', () => {
      // Besides it, each of the console's two deployments brings CDK's AWS CLI layer, which only CDK's deployment function takes.
      const isCliLayer = ([, layer]: [string, Resource]) => layer.Properties!.Description === '/opt/awscli/aws';
      const cliLayers = ofType('AWS::Lambda::LayerVersion').filter(isCliLayer).map(([id]) => ({ Ref: id }));
      expect(cliLayers).toHaveLength(2);
      expect(cliLayers).toContainEqual((resources[deploymentFunctionId()]!.Properties!.Layers as unknown[])[0]);
      const layers = ofType('AWS::Lambda::LayerVersion').filter((entry) => !isCliLayer(entry));
      expect(layers).toHaveLength(1);
      const [layerId, layer] = layers[0]!;
      expect(layer.Properties).toMatchObject({ CompatibleRuntimes: ['nodejs22.x'], CompatibleArchitectures: ['arm64'] });
      expect(passwordHashingHandlers.size).toBeGreaterThan(0);
      for (const handler of handlers) {
        const taken = (resources[fnId(handler)]!.Properties!.Layers as unknown[] | undefined) ?? [];
        expect(taken, handler).toEqual(passwordHashingHandlers.has(handler) ? [{ Ref: layerId }] : []);
      }
    });

    it('read the table, the secret, the key and the public URL from their environment', () => {
      const tableId = logicalId(stack.table.node.defaultChild);
      const secretId = logicalId(stack.signingSecret.node.defaultChild);
      const keyId = logicalId(stack.envelopeKey.node.defaultChild);
      const distributionId = logicalId(stack.edge.distribution.node.defaultChild);
      for (const fn of handlers.map((h) => resources[fnId(h)]!)) {
        const vars = (fn.Properties!.Environment as { Variables: Json }).Variables;
        expect(vars).toMatchObject({
          TESSERA_STAGE: 'aws',
          TESSERA_TABLE: { Ref: tableId },
          TESSERA_SIGNING_KEY_SECRET_ARN: { Ref: secretId },
          TESSERA_CURSOR_KEY_SECRET_ARN: { Ref: logicalId(stack.cursorSecret.node.defaultChild) },
          TESSERA_KMS_KEY_ARN: { 'Fn::GetAtt': [keyId, 'Arn'] },
          POWERTOOLS_SERVICE_NAME: 'tessera',
          POWERTOOLS_METRICS_NAMESPACE: 'Tessera',
          NODE_OPTIONS: '--enable-source-maps',
        });
        // The edge's address: clients reach the API through CloudFront.
        expect(vars.TESSERA_PUBLIC_URL).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] });
      }
    });

    it('take the public URL from context publicUrl when given', () => {
      const { stack: customStack, template: custom } = synth({ publicUrl: 'https://id.acme.example' });
      const customResources = custom.toJSON().Resources as Record<string, Resource>;
      for (const fn of handlers.map((h) => customResources[(customStack.functions.get(h)!.node.defaultChild as CfnElement).stack.getLogicalId(customStack.functions.get(h)!.node.defaultChild as CfnElement)]!)) {
        expect((fn.Properties!.Environment as { Variables: Json }).Variables.TESSERA_PUBLIC_URL).toBe('https://id.acme.example');
      }
    });

    it('log to a log group of their own, with retention', () => {
      const groups = ofType('AWS::Logs::LogGroup');
      for (const handler of handlers) {
        const config = resources[fnId(handler)]!.Properties!.LoggingConfig as { LogGroup: { Ref: string } };
        const group = groups.find(([id]) => id === config.LogGroup.Ref);
        expect(group?.[1].Properties?.RetentionInDays).toBe(defaultStackSettings.logRetention);
      }
      const used = handlers.map((h) => (resources[fnId(h)]!.Properties!.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref);
      expect(new Set(used).size).toBe(handlers.length);
    });

    it('take their timeouts from the one owner the local host also reads', () => {
      for (const handler of handlers) expect(resources[fnId(handler)]!.Properties!.Timeout, handler).toBe(functionTimeoutSeconds(handler));
      // Every route answers within API Gateway's integration timeout.
      for (const handler of apiHandlers) expect(resources[fnId(handler)]!.Properties!.Timeout as number, handler).toBeLessThan(30);
    });

    it('give connections-test room to commit its record and audit event after the provider\'s limit', () => {
      const fn = resources[fnId('connections-test')]!.Properties!;
      const providerLimitMs = Number((fn.Environment as { Variables: Json }).Variables.TESSERA_CONNECTOR_TEST_TIMEOUT_MS);
      expect(providerLimitMs).toBeGreaterThan(0);
      expect(providerLimitMs + CONNECTION_TEST_WRITE_RESERVE_MS).toBeLessThan((fn.Timeout as number) * 1000);
    });

    it('give password-hashing functions more memory (Argon2id is CPU-bound), and the run worker room for its pages', () => {
      for (const handler of apiHandlers) {
        expect(resources[fnId(handler)]!.Properties!.MemorySize).toBe(passwordHashingHandlers.has(handler) ? 1024 : 256);
      }
      expect(resources[fnId('run-worker')]!.Properties!.MemorySize).toBe(512);
      expect(resources[fnId('run-dispatcher')]!.Properties!.MemorySize).toBe(256);
    });
  });

  describe('HTTP API', () => {
    it('has one route per route-table entry with the exact METHOD path key, and the $default route for the rest', () => {
      const keys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!.RouteKey as string);
      expect(keys.sort()).toEqual([...routeList.map((r) => `${r.method} ${r.path}`), '$default'].sort());
    });

    it('wires each route to the live alias of its handler\'s function', () => {
      const routeTarget = (r: Resource) => {
        const join = (r.Properties!.Target as { 'Fn::Join': [string, [string, { Ref: string }]] })['Fn::Join'];
        return join[1][1].Ref;
      };
      for (const [, route] of ofType('AWS::ApiGatewayV2::Route')) {
        const key = route.Properties!.RouteKey as string;
        const handler = key === '$default' ? DEFAULT_ROUTE_HANDLER : routeList.find((r) => `${r.method} ${r.path}` === key)!.handler;
        const integration = resources[routeTarget(route)]!;
        expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
        expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
        expect(integration.Properties!.IntegrationUri, key).toEqual(aliasRef(handler));
      }
    });

    // The $default route's function may be invoked for any method and path: that is its job.
    it('lets API Gateway invoke each function\'s live alias (nothing else of it) only from its own routes', () => {
      const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties!.Principal === 'apigateway.amazonaws.com');
      expect(permissions).toHaveLength(routeList.length + 1);
      const granted = permissions.map(([, p]) => {
        expect(p.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
        const parts = (p.Properties!.SourceArn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
        expect(parts).toContainEqual({ Ref: logicalId(stack.api.node.defaultChild) });
        return `${JSON.stringify(p.Properties!.FunctionName)} ${String(parts.at(-1))}`;
      });
      expect(granted.sort()).toEqual([...routeList.map((r) => `${JSON.stringify(aliasRef(r.handler))} /*/*${r.path}`), `${JSON.stringify(aliasRef(DEFAULT_ROUTE_HANDLER))} /*/*`].sort());
    });

    it('deploys a $default stage with throttling and access logs', () => {
      template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: {
          ThrottlingRateLimit: defaultStackSettings.throttle.rateLimit,
          ThrottlingBurstLimit: defaultStackSettings.throttle.burstLimit,
        },
      });
      const [[, stage]] = ofType('AWS::ApiGatewayV2::Stage') as [[string, Resource]];
      expect(stage.Properties!.AccessLogSettings).toBeDefined();
    });
  });

  describe('least privilege', () => {
    it('gives every function item reads on the table and its indexes, item writes on the table unless it never writes, nothing else on DynamoDB', () => {
      const tableArn = { 'Fn::GetAtt': [logicalId(stack.table.node.defaultChild), 'Arn'] };
      const indexArns = tableDefinition.globalSecondaryIndexes.map((gsi) => ({ 'Fn::Join': ['', [tableArn, `/index/${gsi.indexName}`]] }));
      for (const handler of handlers) {
        const statements = statementsOfRole(roleIdOf(handler)).filter((s) => asArray(s.Action).some((a) => a.startsWith('dynamodb:')));
        if (tableFreeHandlers.has(handler)) {
          expect(statements, handler).toEqual([]);
          continue;
        }
        expect(statements, handler).toEqual([
          { Effect: 'Allow', Action: [...TABLE_READ_ACTIONS], Resource: [tableArn, ...indexArns] },
          ...(tableReadOnlyHandlers.has(handler) ? [] : [{ Effect: 'Allow', Action: [...TABLE_WRITE_ACTIONS], Resource: tableArn }]),
        ]);
        expect(actionsOn(statements, 'dynamodb:')).not.toContain('dynamodb:Scan');
      }
    });

    it('gives the $default route\'s function, which anyone reaches with anything, nothing but its own log group', () => {
      expect([...tableFreeHandlers]).toEqual([DEFAULT_ROUTE_HANDLER]);
      const actions = statementsOfRole(roleIdOf(DEFAULT_ROUTE_HANDLER)).flatMap((s) => asArray(s.Action));
      expect(actions.length).toBeGreaterThan(0);
      expect(actions.filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'))).toEqual([]);
    });

    it('gives the read-only functions (openapi, jwks, the catalog, the pure reads) no DynamoDB write action at all', () => {
      for (const handler of ['openapi', 'jwks', 'integrations-list', 'health']) expect(tableReadOnlyHandlers.has(handler), handler).toBe(true);
      const readOnly = handlers.filter((h) => tableReadOnlyHandlers.has(h));
      expect(readOnly.length).toBeGreaterThan(10);
      for (const handler of readOnly) {
        const dynamodbActions = actionsOn(statementsOfRole(roleIdOf(handler)), 'dynamodb:');
        expect(dynamodbActions.filter((a) => !(TABLE_READ_ACTIONS as readonly string[]).includes(a)), handler).toEqual([]);
      }
    });

    /** Whether a statement lets its role read `secretId` (any action that includes GetSecretValue, on any resource that covers it). */
    const readsSecret = (statement: Statement, secretId: string) => {
      const reads = asArray(statement.Action).some((a) => a === '*' || a === 'secretsmanager:*' || a === 'secretsmanager:GetSecretValue' || (a.startsWith('secretsmanager:') && a.includes('*')));
      const covers = asArray(statement.Resource).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: secretId }) || JSON.stringify(r).includes('*'));
      return statement.Effect === 'Allow' && reads && covers;
    };
    const rolesReading = (secretId: string) =>
      ofType('AWS::IAM::Policy')
        .filter(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement.some((s) => readsSecret(s, secretId)))
        .flatMap(([, p]) => (p.Properties!.Roles as { Ref: string }[]).map((r) => r.Ref));

    it('lets no function but the token issuers read the signing secret', () => {
      const signingSecretId = logicalId(stack.signingSecret.node.defaultChild);
      const issuerRoles = handlers.filter((h) => tokenIssuingHandlers.has(h)).map(roleIdOf);
      expect(issuerRoles.length).toBeGreaterThan(0);
      expect(new Set(rolesReading(signingSecretId))).toEqual(new Set(issuerRoles));
      for (const verifier of ['jwks', 'me-get', 'health', 'openapi', ...jobHandlers]) expect(rolesReading(signingSecretId), verifier).not.toContain(roleIdOf(verifier));
      // Nor through a statement on "*", tracing on (X-Ray's statements are the only ones on "*").
      const { stack: traced, template: tracedTemplate } = synth({ tracing: true });
      const tracedSecretId = traced.getLogicalId(traced.signingSecret.node.defaultChild as CfnElement);
      const tracedReaders = Object.values(tracedTemplate.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
        (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement.some((s) => readsSecret(s, tracedSecretId)),
      );
      expect(tracedReaders).toHaveLength(issuerRoles.length);
    });

    it('lets the list functions (and no other) read the cursor secret, with GetSecretValue alone', () => {
      const cursorSecretId = logicalId(stack.cursorSecret.node.defaultChild);
      expect(cursorSealingHandlers.size).toBeGreaterThan(10);
      expect(new Set(rolesReading(cursorSecretId))).toEqual(new Set([...cursorSealingHandlers].map(roleIdOf)));
      for (const handler of handlers) {
        const statements = statementsOfRole(roleIdOf(handler)).filter((s) => asArray(s.Action).some((a) => a.startsWith('secretsmanager:')));
        const expected = [
          ...(cursorSealingHandlers.has(handler) ? [{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: cursorSecretId } }] : []),
          ...(tokenIssuingHandlers.has(handler) ? [{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: logicalId(stack.signingSecret.node.defaultChild) } }] : []),
        ];
        expect(statements, handler).toEqual(expected);
      }
    });

    const kmsStatementsOf = (handler: string) => statementsOfRole(roleIdOf(handler)).filter((s) => asArray(s.Action).some((a) => a.startsWith('kms:')));

    it('gives the envelope key only to the handlers that encrypt or decrypt: GenerateDataKey per kind they encrypt, Decrypt per kind they decrypt', () => {
      const keyArn = { 'Fn::GetAtt': [logicalId(stack.envelopeKey.node.defaultChild), 'Arn'] };
      const withKms = handlers.filter((h) => kmsStatementsOf(h).length > 0);
      expect(withKms.sort()).toEqual(handlers.filter((h) => envelopeKeyUses.has(h)).sort());
      for (const handler of withKms) {
        const use = envelopeKeyUses.get(handler)!;
        const granted = kmsStatementsOf(handler).flatMap((s) => {
          expect(s.Resource, handler).toEqual(keyArn);
          const kind = Object.entries(encryptionContextShapes).find(([, shape]) => JSON.stringify(shape.keys) === JSON.stringify(s.Condition?.['ForAllValues:StringEquals']?.['kms:EncryptionContextKeys']) && shape.purpose === s.Condition?.StringEquals?.['kms:EncryptionContext:purpose'])?.[0];
          return asArray(s.Action).map((action) => `${action}:${kind}`);
        });
        const expected = [...use.encrypts.map((k) => `kms:GenerateDataKey:${k}`), ...use.decrypts.map((k) => `kms:Decrypt:${k}`)];
        expect(granted.sort(), handler).toEqual(expected.sort());
      }
    });

    it('grants kms:Encrypt to no role (the keyring never calls it), and no KMS action beyond the keyring\'s', () => {
      for (const handler of handlers) {
        for (const action of actionsOn(statementsOfRole(roleIdOf(handler)), 'kms:')) expect(['kms:GenerateDataKey', 'kms:Decrypt'], `${handler}: ${action}`).toContain(action);
      }
      const everyStatement = ofType('AWS::IAM::Policy').flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
      expect(everyStatement.flatMap((s) => asArray(s.Action)).filter((a) => a === 'kms:Encrypt' || a === 'kms:*')).toEqual([]);
    });

    it('conditions every KMS statement on the exact encryption-context keys of one kind of secret (and its purpose)', () => {
      const kmsStatements = handlers.flatMap(kmsStatementsOf);
      expect(kmsStatements.length).toBeGreaterThan(envelopeKeyUses.size);
      for (const statement of kmsStatements) {
        const keys = statement.Condition?.['ForAllValues:StringEquals']?.['kms:EncryptionContextKeys'] as string[] | undefined;
        const purpose = statement.Condition?.StringEquals;
        // Kinds with the same keys are told apart by their purpose, which the statement must pin.
        const shape = Object.values(encryptionContextShapes).find((s) => JSON.stringify(s.keys) === JSON.stringify(keys) && JSON.stringify(purpose) === JSON.stringify(s.purpose === undefined ? undefined : { 'kms:EncryptionContext:purpose': s.purpose }));
        expect(shape, JSON.stringify(statement)).toBeDefined();
        // Every key present (ForAllValues alone would also allow a request with no context at all).
        expect(statement.Condition!.Null).toEqual(Object.fromEntries(shape!.keys.map((k) => [`kms:EncryptionContext:${k}`, 'false'])));
      }
    });

    it('lets the run worker only decrypt, and only ciphertexts under a connection configuration context', () => {
      const keyArn = { 'Fn::GetAtt': [logicalId(stack.envelopeKey.node.defaultChild), 'Arn'] };
      expect(kmsStatementsOf('run-worker')).toEqual([
        {
          Effect: 'Allow',
          Action: 'kms:Decrypt',
          Resource: keyArn,
          Condition: {
            'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['tenant_id', 'workspace_id', 'connection_id'] },
            Null: { 'kms:EncryptionContext:tenant_id': 'false', 'kms:EncryptionContext:workspace_id': 'false', 'kms:EncryptionContext:connection_id': 'false' },
          },
        },
      ]);
    });

    it('lets only the handlers that queue run steps send to the run queue, and nothing else on SQS but the worker consuming it', () => {
      const queueArn = { 'Fn::GetAtt': [logicalId(stack.runQueues.queue.node.defaultChild), 'Arn'] };
      const sending = handlers.filter((h) => actionsOn(statementsOfRole(roleIdOf(h)), 'sqs:SendMessage').length > 0);
      expect(sending.sort()).toEqual(handlers.filter((h) => runQueueSendingHandlers.has(h)).sort());
      for (const handler of handlers) {
        const statements = statementsOfRole(roleIdOf(handler)).filter((s) => asArray(s.Action).some((a) => a.startsWith('sqs:')));
        for (const statement of statements) expect(statement.Resource, handler).toEqual(queueArn);
        const actions = actionsOn(statements, 'sqs:');
        if (handler === 'run-worker') expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:SendMessage']));
        else expect(actions.filter((a) => a !== 'sqs:SendMessage'), handler).toEqual([]);
        const vars = (resources[fnId(handler)]!.Properties!.Environment as { Variables: Json }).Variables;
        expect(vars.TESSERA_RUN_QUEUE_URL !== undefined, handler).toBe(runQueueSendingHandlers.has(handler));
      }
    });

    it('lets only the email-sending handlers call ses:SendEmail, from the configured sender only', () => {
      const withSes = handlers.filter((h) => actionsOn(statementsOfRole(roleIdOf(h)), 'ses:').length > 0);
      expect(withSes.length).toBeGreaterThan(0);
      expect(withSes.sort()).toEqual(handlers.filter((h) => emailSendingHandlers.has(h)).sort());
      for (const handler of withSes) {
        const statements = statementsOfRole(roleIdOf(handler)).filter((s) => asArray(s.Action).some((a) => a.startsWith('ses:')));
        expect(statements).toHaveLength(1);
        expect(statements[0]).toMatchObject({ Action: 'ses:SendEmail', Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } } });
        const resources = JSON.stringify(statements[0]!.Resource);
        expect(resources).toContain(':identity/example.com');
        expect(resources).toContain(':identity/no-reply@example.com');
      }
      const fn = resources[fnId([...emailSendingHandlers][0]!)]!;
      expect((fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables.TESSERA_EMAIL_FROM).toBe('Tessera <no-reply@example.com>');
    });

    it('lets each function write only to its own log group', () => {
      for (const handler of handlers) {
        const logGroupId = (resources[fnId(handler)]!.Properties!.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
        const statements = statementsOfRole(roleIdOf(handler)).filter((s) => asArray(s.Action).some((a) => a.startsWith('logs:')));
        expect(statements).toHaveLength(1);
        expect(statements[0]!.Resource).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
      }
    });

    it('attaches no managed policies to a function and no wildcard resource at all (tracing off), but in CDK\'s console deployment', () => {
      for (const handler of handlers) expect(resources[roleIdOf(handler)]!.Properties!.ManagedPolicyArns, handler).toBeUndefined();
      const deploymentStatements = statementsOfRole(deploymentRoleId());
      const everyStatement = ofType('AWS::IAM::Policy').flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement).filter((s) => !deploymentStatements.includes(s));
      // The patterns: the audit anchor bucket's objects, for s3:PutObject alone (see 'audit anchor'), and the exports bucket's (see 'exports bucket').
      const isAnchorPut = (s: Statement) => s.Action === 's3:PutObject' && JSON.stringify(s.Resource) === JSON.stringify(anchorObjects);
      const isExportObjects = (s: Statement) => asArray(s.Action).every((a) => ['s3:PutObject', 's3:AbortMultipartUpload', 's3:GetObject'].includes(a)) && JSON.stringify(s.Resource) === JSON.stringify(exportObjects);
      expect(everyStatement.filter((s) => !isAnchorPut(s) && !isExportObjects(s) && asArray(s.Resource).some((r) => JSON.stringify(r).includes('*')))).toEqual([]);
      // CDK's deployment function: objects of the CDK assets bucket and of the console's bucket, and invalidations.
      const consoleBucketId = logicalId(stack.edge.console.bucket.node.defaultChild);
      const onWildcards = deploymentStatements.flatMap((s) => asArray(s.Resource).filter((r) => JSON.stringify(r).includes('*')).map((r) => JSON.stringify(r)));
      expect(onWildcards.sort()).toEqual([
        '"*"',
        JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [consoleBucketId, 'Arn'] }, '/*']] }),
        JSON.stringify({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::cdk-hnb659fds-assets-${TEST_ENVIRONMENT.account}-${TEST_ENVIRONMENT.region}/*`]] }),
      ].sort());
      expect(deploymentStatements.find((s) => s.Resource === '*')!.Action).toEqual(['cloudfront:GetInvalidation', 'cloudfront:CreateInvalidation']);
      for (const s of everyStatement) expect(asArray(s.Action).some((a) => a === '*' || a.endsWith(':*'))).toBe(false);
    });

    it('keeps DynamoDB, KMS and Secrets Manager off "*" even with tracing on', () => {
      const { template: traced } = synth({ tracing: true });
      const statements = Object.values(traced.findResources('AWS::IAM::Policy') as Record<string, Resource>).flatMap(
        (p) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement,
      );
      const onStar = statements.filter((s) => asArray(s.Resource).includes('*'));
      expect(onStar.length).toBeGreaterThan(0); // X-Ray's PutTraceSegments cannot be scoped
      // Besides X-Ray, CDK's console deployment invalidates the distribution (no narrower resource).
      for (const s of onStar) expect(asArray(s.Action).every((a) => a.startsWith('xray:') || a.startsWith('cloudfront:') && a.endsWith('Invalidation'))).toBe(true);
    });
  });

  describe('audit anchor', () => {
    const bucketOf = () => ofType('AWS::S3::Bucket').filter(([, r]) => (r.Properties as { ObjectLockEnabled?: boolean }).ObjectLockEnabled === true);

    it('is one retained, versioned, private, TLS-only bucket under Object Lock in compliance mode, named for the environment and account', () => {
      const locked = bucketOf();
      expect(locked).toHaveLength(1);
      const [id, bucket] = locked[0]!;
      expect(id).toBe(logicalId(stack.auditAnchor.bucket.node.defaultChild));
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.Properties).toMatchObject({
        BucketName: { 'Fn::Join': ['', ['tessera-test-anchors-', { Ref: 'AWS::AccountId' }]] },
        ObjectLockEnabled: true,
        ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: defaultStackSettings.auditAnchorRetentionDays } } },
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      });
      expect(defaultStackSettings.auditAnchorRetentionDays).toBe(400);
    });

    it('takes its retention from the environment\'s settings', () => {
      const { template: shorter } = synth({ auditAnchorRetentionDays: 30 });
      const buckets = Object.values(shorter.findResources('AWS::S3::Bucket') as Record<string, Resource>).filter((r) => (r.Properties as { ObjectLockEnabled?: boolean }).ObjectLockEnabled === true);
      expect(buckets.map((b) => (b.Properties as { ObjectLockConfiguration: { Rule: { DefaultRetention: unknown } } }).ObjectLockConfiguration.Rule.DefaultRetention)).toEqual([{ Mode: 'COMPLIANCE', Days: 30 }]);
    });

    it('lets exactly the appending functions put objects into it, and no role of the stack delete one', () => {
      const onAnchorOf = (h: string) => statementsOfRole(roleIdOf(h)).filter((s) => asArray(s.Action).some((a) => a.startsWith('s3:')) && JSON.stringify(s.Resource).includes('-anchors-'));
      const withS3 = handlers.filter((h) => onAnchorOf(h).length > 0);
      expect(withS3.sort()).toEqual(handlers.filter((h) => auditAppendingHandlers.has(h)).sort());
      for (const handler of withS3) {
        const statements = onAnchorOf(handler);
        expect(statements, handler).toEqual([{ Effect: 'Allow', Action: 's3:PutObject', Resource: anchorObjects }]);
        const vars = (resources[fnId(handler)]!.Properties!.Environment as { Variables: Json }).Variables;
        expect(vars.TESSERA_AUDIT_ANCHOR_BUCKET).toEqual({ 'Fn::Join': ['', ['tessera-test-anchors-', { Ref: 'AWS::AccountId' }]] });
      }
      // Nothing else in the stack names the bucket or its objects in a policy: no read, no delete, no lock change.
      const bucketId = logicalId(stack.auditAnchor.bucket.node.defaultChild);
      const onAnchor = ofType('AWS::IAM::Policy')
        .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement)
        .filter((st) => { const text = JSON.stringify(st.Resource); return text.includes('-anchors-') || text.includes(bucketId); });
      expect(onAnchor.length).toBe(withS3.length);
      for (const st of onAnchor) expect(st).toEqual({ Effect: 'Allow', Action: 's3:PutObject', Resource: anchorObjects });
    });
  });

  describe('exports bucket', () => {
    const bucketId = () => logicalId(stack.exportsBucket.bucket.node.defaultChild);

    it('is private, TLS-only, encrypted at rest, named for the environment and account, and forgets every file after a day', () => {
      const bucket = resources[bucketId()]!;
      expect(bucket.Properties).toMatchObject({
        BucketName: { 'Fn::Join': ['', ['tessera-test-exports-', { Ref: 'AWS::AccountId' }]] },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        LifecycleConfiguration: { Rules: [{ Status: 'Enabled', ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }] },
        // The console's fetch follows the content route's redirect here (Origin: null after it).
        CorsConfiguration: { CorsRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'], MaxAge: 300 }] },
      });
      expect((bucket.Properties as { LoggingConfiguration?: unknown }).LoggingConfiguration).toBeDefined();
      const policies = ofType('AWS::S3::BucketPolicy').filter(([, p]) => JSON.stringify(p.Properties!.Bucket) === JSON.stringify({ Ref: bucketId() }));
      expect(policies).toHaveLength(1);
      expect((policies[0]![1].Properties!.PolicyDocument as { Statement: Statement[] }).Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    });

    it('lets the run worker write export files and the content route read them, nobody list or delete, and tells both where it is', () => {
      const onExportsOf = (h: string) => statementsOfRole(roleIdOf(h)).filter((s) => JSON.stringify(s.Resource).includes('-exports-') || JSON.stringify(s.Resource).includes(bucketId()));
      const granted = handlers.filter((h) => onExportsOf(h).length > 0).sort();
      expect(granted).toEqual([...exportWritingHandlers, ...exportReadingHandlers].sort());
      expect(granted).toEqual(['exports-content', 'run-worker']);
      expect(onExportsOf('run-worker')).toEqual([{ Effect: 'Allow', Action: ['s3:PutObject', 's3:AbortMultipartUpload'], Resource: exportObjects }]);
      expect(onExportsOf('exports-content')).toEqual([{ Effect: 'Allow', Action: 's3:GetObject', Resource: exportObjects }]);
      for (const handler of granted) {
        const vars = (resources[fnId(handler)]!.Properties!.Environment as { Variables: Json }).Variables;
        expect(vars.TESSERA_EXPORTS_BUCKET).toEqual({ 'Fn::Join': ['', ['tessera-test-exports-', { Ref: 'AWS::AccountId' }]] });
      }
    });
  });

  describe('discovery runs', () => {
    const queues = () => ofType('AWS::SQS::Queue');
    const queueId = (construct: { node: { defaultChild?: unknown } }) => logicalId(construct.node.defaultChild);

    it('carry run steps on an encrypted, TLS-only queue whose repeated failures go to a dead-letter queue', () => {
      expect(queues()).toHaveLength(3);
      const main = resources[queueId(stack.runQueues.queue)]!.Properties!;
      expect(main).toMatchObject({
        VisibilityTimeout: RUN_QUEUE_VISIBILITY_SECONDS,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [queueId(stack.runQueues.deadLetterQueue), 'Arn'] }, maxReceiveCount: RUN_QUEUE_MAX_RECEIVE_COUNT },
      });
      for (const [, queue] of queues()) expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true });
      const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>);
      expect(policies).toHaveLength(3);
      for (const policy of policies) expect(JSON.stringify(policy.Properties)).toContain('aws:SecureTransport');
      // A message is never visible again while its step may still run, and the recovery waits longer still.
      expect(RUN_QUEUE_VISIBILITY_SECONDS).toBeGreaterThanOrEqual(6 * RUN_WORKER_TIMEOUT_SECONDS);
      expect(RUN_STALL_SECONDS).toBeGreaterThan(RUN_QUEUE_VISIBILITY_SECONDS);
    });

    it('feed the worker one message at a time with per-message failures, within its timeout', () => {
      const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>);
      expect(mappings).toHaveLength(1);
      // The alias's qualified name, `<function>:live`, built from the alias ARN.
      const functionName = JSON.stringify(mappings[0]!.Properties!.FunctionName);
      expect(functionName).toContain(JSON.stringify(aliasRef('run-worker')));
      expect(functionName).toContain('":live"');
      expect(mappings[0]!.Properties).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [queueId(stack.runQueues.queue), 'Arn'] },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      expect(resources[fnId('run-worker')]!.Properties).toMatchObject({ Timeout: RUN_WORKER_TIMEOUT_SECONDS, MemorySize: 512 });
      const vars = (resources[fnId('run-worker')]!.Properties!.Environment as { Variables: Json }).Variables;
      // A step's reads and the job's margin for the checkpoint fit in the function's timeout.
      expect(Number(vars.TESSERA_RUN_STEP_SECONDS) * 1000 + JOB_SAFETY_MARGIN_MS).toBeLessThan(RUN_WORKER_TIMEOUT_SECONDS * 1000);
      for (const handler of handlers) {
        expect((resources[fnId(handler)]!.Properties!.Environment as { Variables: Json }).Variables.TESSERA_RUN_STALL_SECONDS).toBe(String(RUN_STALL_SECONDS));
      }
    });

    it('tick the dispatcher every minute from an EventBridge rule whose failed deliveries go to a dead-letter queue', () => {
      const rules = Object.values(template.findResources('AWS::Events::Rule') as Record<string, Resource>);
      expect(rules).toHaveLength(1);
      expect(rules[0]!.Properties).toMatchObject({
        ScheduleExpression: 'rate(1 minute)',
        State: 'ENABLED',
        Targets: [
          expect.objectContaining({
            Arn: aliasRef('run-dispatcher'),
            DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId(stack.runQueues.dispatchDeadLetterQueue), 'Arn'] } },
            RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 300 },
          }),
        ],
      });
      const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>).filter((p) => p.Properties!.Principal === 'events.amazonaws.com');
      expect(permissions).toEqual([expect.objectContaining({ Properties: expect.objectContaining({ FunctionName: aliasRef('run-dispatcher') }) })]);
    });

    it('alarm as soon as a dead-letter queue holds a message', () => {
      const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>);
      const onDeadLetters = alarms.filter((a) => a.Properties!.MetricName === 'ApproximateNumberOfMessagesVisible');
      expect(onDeadLetters).toHaveLength(2);
      const watched = onDeadLetters.map((a) => JSON.stringify(a.Properties!.Dimensions));
      expect(watched.some((d) => d.includes(queueId(stack.runQueues.deadLetterQueue)))).toBe(true);
      expect(watched.some((d) => d.includes(queueId(stack.runQueues.dispatchDeadLetterQueue)))).toBe(true);
      for (const alarm of onDeadLetters) expect(alarm.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    });
  });

  describe('cdk-nag, AWS Solutions and Serverless packs', () => {
    /** Synthesizes the environment's stacks (the edge's in us-east-1 too) with both packs, as the app does; a finding not acknowledged throws. */
    const nagSynth = (settings: StackSettings) => {
      const app = new App({ context: SKIP_BUNDLING });
      const { account, region } = stackEnvironment(settings, {});
      addEnvironmentStacks(app, settings, { account: account ?? TEST_ENVIRONMENT.account, region: region ?? TEST_ENVIRONMENT.region });
      applyNagPacks(app);
      return () => app.synth();
    };

    it('finds nothing unacknowledged in the production example of cdk.json (acme-prod: tracing on, domains, subscribers)', () => {
      const settings = readStackSettings(new App({ context: { ...cdkJsonContext(), env: 'acme-prod' } }).node);
      expect(settings).toMatchObject({ production: true, tracing: true, account: '111111111111', region: 'eu-west-1' });
      expect(nagSynth(settings)).not.toThrow();
    });

    it('finds nothing unacknowledged in a development environment (tracing off, no subscribers, no domain)', () => {
      expect(nagSynth({ ...defaultStackSettings, env: 'nag' })).not.toThrow();
    });

    it('does find what is not acknowledged (the check is live)', () => {
      const { app, stack } = testEnvironmentStacks({ env: 'nag' });
      // An unencrypted queue with no dead-letter queue: findings of both packs.
      new sqs.Queue(stack, 'Unchecked', { encryption: sqs.QueueEncryption.UNENCRYPTED });
      applyNagPacks(app);
      let report = '';
      try {
        app.synth();
      } catch (error) {
        report = (error as Error).message;
      }
      expect(report).toMatch(/Unchecked\/Resource[\s\S]*\(AwsSolutions\)|\(AwsSolutions\)[\s\S]*Unchecked\/Resource/);
      expect(report).toContain('(Serverless)');
    });
  });
});
