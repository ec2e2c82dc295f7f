/**
 * The AWS connector against moto (5.x), a third-party emulator of IAM and STS (not the project's own
 * fake): an IAM estate seeded through the AWS SDK (users, groups, roles, customer and AWS managed
 * policies, inline policies, permissions boundaries), then a discovery run over HTTP. moto's
 * GetAccountAuthorizationDetails lists managed policies without `PolicyName`, so this is where a
 * connector that needs the name would leave relationships pointing at entities never written.
 * It also answers every item in one page whatever `MaxItems` asks, and lists every AWS managed
 * policy it knows, attached or not (IAM lists the attached ones): hence the long run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AddUserToGroupCommand,
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateAccessKeyCommand,
  CreateGroupCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  CreateUserCommand,
  IAMClient,
  PutGroupPolicyCommand,
  PutRolePolicyCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { requireMoto, startMoto, type Moto } from '../support/moto';
import { MovableClock } from '../support/movable-clock';
import { listAll, runToEnd, type EntityBody, type RelationshipBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

const missing = requireMoto('AWS discovery against moto');

/** moto's default account. */
const ACCOUNT = '123456789012';
const arn = (path: string) => `arn:aws:iam::${ACCOUNT}:${path}`;
const document = (action: string | string[], resource: string | string[]) => JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: action, Resource: resource }] });
const trust = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] });
const READ_ONLY = 'arn:aws:iam::aws:policy/ReadOnlyAccess';
const SECURITY_AUDIT = 'arn:aws:iam::aws:policy/SecurityAudit';

let moto: Moto;
let host: TestHost;
let http: HttpClient;
let token: string;
let keys: { access_key_id: string; secret_access_key: string };
const clock = new MovableClock();

/** The estate, made as an admin would with the SDK; answers the discovery user's keys. */
async function seed(iam: IAMClient) {
  const devS3 = (await iam.send(new CreatePolicyCommand({ PolicyName: 'DevS3', Path: '/engineering/', PolicyDocument: document('s3:*', ['arn:aws:s3:::dev-bucket', 'arn:aws:s3:::dev-bucket/*']) }))).Policy!.Arn!;
  const boundary = (await iam.send(new CreatePolicyCommand({ PolicyName: 'DeveloperBoundary', PolicyDocument: document(['s3:*', 'logs:*'], '*') }))).Policy!.Arn!;
  await iam.send(new CreateGroupCommand({ GroupName: 'Admins' }));
  await iam.send(new AttachGroupPolicyCommand({ GroupName: 'Admins', PolicyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' }));
  await iam.send(new CreateGroupCommand({ GroupName: 'Developers', Path: '/engineering/' }));
  await iam.send(new AttachGroupPolicyCommand({ GroupName: 'Developers', PolicyArn: devS3 }));
  await iam.send(new PutGroupPolicyCommand({ GroupName: 'Developers', PolicyName: 'ReadLogs', PolicyDocument: document('logs:GetLogEvents', `arn:aws:logs:us-east-1:${ACCOUNT}:log-group:/app/*`) }));

  await iam.send(new CreateUserCommand({ UserName: 'alice', Tags: [{ Key: 'email', Value: 'Alice@Example.com' }] }));
  await iam.send(new AddUserToGroupCommand({ GroupName: 'Admins', UserName: 'alice' }));
  await iam.send(new AddUserToGroupCommand({ GroupName: 'Developers', UserName: 'alice' }));
  await iam.send(new CreateUserCommand({ UserName: 'bob' }));
  await iam.send(new AddUserToGroupCommand({ GroupName: 'Developers', UserName: 'bob' }));
  await iam.send(new PutUserPolicyCommand({ UserName: 'bob', PolicyName: 'BobBucket', PolicyDocument: document(['s3:GetObject', 's3:PutObject'], 'arn:aws:s3:::bob-bucket/*') }));
  await iam.send(new CreateUserCommand({ UserName: 'ci-deployer', Path: '/service/' }));
  await iam.send(new AttachUserPolicyCommand({ UserName: 'ci-deployer', PolicyArn: devS3 }));

  await iam.send(new CreateRoleCommand({ RoleName: 'AppRole', AssumeRolePolicyDocument: trust, PermissionsBoundary: boundary }));
  await iam.send(new AttachRolePolicyCommand({ RoleName: 'AppRole', PolicyArn: READ_ONLY }));
  await iam.send(new PutRolePolicyCommand({ RoleName: 'AppRole', PolicyName: 'AppData', PolicyDocument: document(['dynamodb:GetItem', 'dynamodb:Query'], `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/orders`) }));
  await iam.send(new CreateRoleCommand({ RoleName: 'Auditor', Path: '/audit/', AssumeRolePolicyDocument: trust }));
  await iam.send(new AttachRolePolicyCommand({ RoleName: 'Auditor', PolicyArn: SECURITY_AUDIT }));

  await iam.send(new CreateUserCommand({ UserName: 'tessera-discovery' }));
  await iam.send(new AttachUserPolicyCommand({ UserName: 'tessera-discovery', PolicyArn: SECURITY_AUDIT }));
  const key = (await iam.send(new CreateAccessKeyCommand({ UserName: 'tessera-discovery' }))).AccessKey!;
  return { access_key_id: key.AccessKeyId!, secret_access_key: key.SecretAccessKey! };
}

describe.skipIf(missing)('AWS discovery against moto', () => {
  beforeAll(async () => {
    moto = await startMoto();
    const admin = new IAMClient({ endpoint: moto.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIAMOTOADMIN0000000', secretAccessKey: 'motoadminsecret000000000000000000000000a' } });
    keys = await seed(admin);
    admin.destroy();
    host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ sts: moto.url, iam: moto.url }) } });
    http = api(host.url);
    const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    token = (await login(http, clock, tenant.admin.email)).accessToken;
  });
  afterAll(async () => {
    await host?.close();
    await moto?.close();
  });

  // moto lists every AWS managed policy it knows (over a thousand, ten pages and more): a long run on a shared machine.
  it('reads the estate to the end, and every relationship has both ends among the entities', { timeout: 300_000 }, async () => {
    const created = await http.request('POST', '/v1/connections', {
      token,
      body: { integration_id: 'int_aws_iam_discovery', name: 'moto', scope: { account_ids: [ACCOUNT] }, schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: { ...keys, region: 'us-east-1' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { connection_id: string }).connection_id;
    const run = await runToEnd(http, host, token, id);
    expect(run).toMatchObject({ status: 'succeeded', errors: [] });

    const entities = await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities');
    const relationships = await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships`, 'relationships');
    const ids = new Set(entities.map((e) => e.entity_id));
    const dangling = relationships.filter((r) => !ids.has(r.from_entity_id) || !ids.has(r.to_entity_id)).map((r) => `${r.kind} ${r.from_source_id} -> ${r.to_source_id}`);
    expect(dangling).toEqual([]);
    expect(relationships.length).toBe(run.counts.relationships.account_assigned_entitlement! + run.counts.relationships.principal_represents_account! + run.counts.relationships.entitlement_grants_resource!);

    const bySource = new Map(entities.map((e) => [e.source_id, e]));
    // Every user and role, each managed policy named (from its ARN: moto lists it without PolicyName).
    for (const user of ['user/alice', 'user/bob', 'user/service/ci-deployer', 'user/tessera-discovery', 'role/AppRole', 'role/audit/Auditor']) {
      expect(bySource.get(arn(user))?.kind, user).toBe('Account');
    }
    expect(bySource.get(arn('policy/engineering/DevS3'))).toMatchObject({ kind: 'Entitlement', display_name: 'DevS3', attributes: { type: 'managed_policy', aws_managed: false } });
    expect(bySource.get(READ_ONLY)).toMatchObject({ kind: 'Entitlement', display_name: 'ReadOnlyAccess', attributes: { aws_managed: true } });
    expect(bySource.get(arn('group/engineering/Developers'))).toMatchObject({ kind: 'Entitlement', display_name: 'Developers' });
    expect(bySource.get(`${arn('group/engineering/Developers')}#ReadLogs`)).toMatchObject({ attributes: { type: 'inline_policy' } });
    // moto keeps a role's permissions boundary but not a user's (CreateUser ignores it and
    // PutUserPermissionsBoundary is not implemented): users' boundaries are tested on the project's fake.
    expect(bySource.get(arn('role/AppRole'))?.attributes).toMatchObject({ permissions_boundary_arn: arn('policy/DeveloperBoundary') });

    // What users hold through groups, directly and inline, each end written.
    const holds = (from: string, to: string) => relationships.some((r) => r.kind === 'account_assigned_entitlement' && r.from_source_id === from && r.to_source_id === to);
    expect(holds(arn('user/alice'), 'arn:aws:iam::aws:policy/AdministratorAccess')).toBe(true);
    expect(holds(arn('user/bob'), arn('policy/engineering/DevS3'))).toBe(true);
    expect(holds(arn('user/bob'), `${arn('user/bob')}#BobBucket`)).toBe(true);
    expect(holds(arn('user/service/ci-deployer'), arn('policy/engineering/DevS3'))).toBe(true);
    expect(holds(arn('role/AppRole'), READ_ONLY)).toBe(true);
    expect(holds(arn('role/audit/Auditor'), SECURITY_AUDIT)).toBe(true);
    expect(relationships.some((r) => r.kind === 'principal_represents_account' && r.from_source_id === 'alice@example.com' && r.to_source_id === arn('user/alice'))).toBe(true);
  });
});
