/**
 * No relationship without its ends, over HTTP: an AWS user attached to a managed policy that the
 * account's policy listing does not contain (IAM answering inconsistently, or a connector that
 * dropped the policy) gives a relationship whose end the run never observed. The writer refuses
 * it: the run is `partial` with a `provider` error naming the relationship and both source ids,
 * the inventory holds no relationship with a missing end, and everything else is kept. The
 * relationships whose ends come in a later page or step (users before the policies they attach)
 * are linked all the same (the clouds test checks an ordinary run in full).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { AWS_ACCOUNT, awsRole, awsUser, sampleAccounts, startFakeAws, type FakeAws } from '../../infra/local/stand-ins/aws';
import { countByKind, listAll, runToEnd, type EntityBody, type RelationshipBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

let aws: FakeAws;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

const GONE_POLICY = `arn:aws:iam::${AWS_ACCOUNT}:policy/Gone`;
const CAROL = `arn:aws:iam::${AWS_ACCOUNT}:user/carol`;

beforeAll(async () => {
  // Small pages and steps: the users' managed policies come steps before the policies phase lists them.
  aws = await startFakeAws({ detailsPageSize: 2 });
  host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ sts: aws.url, iam: aws.url }), TESSERA_RUN_PAGES_PER_STEP: '2' },
  });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await aws?.close();
});

async function createConnection(): Promise<string> {
  const res = await http.request('POST', '/v1/connections', {
    token,
    body: {
      integration_id: 'int_aws_iam_discovery',
      name: 'dangling',
      scope: { account_ids: [AWS_ACCOUNT] },
      schedule: { type: 'daily', hour: 3, minute: 0 },
      configuration: { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1', role_arn: awsRole.arn, external_id: awsRole.externalId! },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { connection_id: string }).connection_id;
}

describe('a relationship whose end the run never observed', () => {
  it('is refused and reported: partial, a provider error naming it, no dangling end in the inventory', async () => {
    const accounts = sampleAccounts();
    const carol = accounts[AWS_ACCOUNT]!.users.find((user) => user.name === 'carol')!;
    carol.managed = [...(carol.managed ?? []), GONE_POLICY];
    expect(accounts[AWS_ACCOUNT]!.policies.some((policy) => policy.arn === GONE_POLICY)).toBe(false);
    aws.state.accounts = accounts;
    const id = await createConnection();

    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('partial');
    expect(run.errors).toEqual([
      {
        category: 'provider',
        message: `The provider listed a account_assigned_entitlement relationship from Account ${CAROL} to Entitlement ${GONE_POLICY}, but never listed Entitlement ${GONE_POLICY} in this run; the relationship was not recorded.`,
        action: expect.stringContaining(`Entitlement ${GONE_POLICY} exists`),
      },
    ]);
    expect(run.stats.dangling_relationships).toBe(1);
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded' });

    const entities = await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities');
    const relationships = await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships`, 'relationships');
    const ids = new Set(entities.map((entity) => entity.entity_id));
    expect(relationships.length).toBeGreaterThan(10);
    expect(relationships.filter((r) => !ids.has(r.from_entity_id) || !ids.has(r.to_entity_id))).toEqual([]);
    expect(relationships.filter((r) => r.to_source_id === GONE_POLICY)).toEqual([]);
    expect(entities.filter((e) => e.source_id === GONE_POLICY)).toEqual([]);
    // Carol keeps what the provider did list: her group's (the run read it steps before her).
    const carolsEdges = relationships.filter((r) => r.from_source_id === CAROL && r.kind === 'account_assigned_entitlement').map((r) => r.to_source_id);
    expect(carolsEdges).toContain(`arn:aws:iam::${AWS_ACCOUNT}:group/Auditors`);
    // A user's managed policy is listed by a later phase, steps after the user: linked all the same.
    const ciDeployer = relationships.filter((r) => r.from_source_id === `arn:aws:iam::${AWS_ACCOUNT}:user/service/ci-deployer`).map((r) => r.to_source_id);
    expect(ciDeployer.some((to) => to.includes(':policy/'))).toBe(true);
    // What the run counts and reports as added is what it kept.
    expect(run.counts.relationships).toEqual(countByKind(relationships));
    expect(run.changes.relationships_added).toBe(relationships.length);

    // Once the provider lists the policy, the next run records the relationship and succeeds.
    accounts[AWS_ACCOUNT]!.policies.push({ arn: GONE_POLICY, name: 'Gone', id: 'ANPAGONE000000000001', versions: [{ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }] }] });
    const next = await runToEnd(http, host, token, id);
    expect(next).toMatchObject({ status: 'succeeded', errors: [], stats: { dangling_relationships: 0 } });
    const after = await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships`, 'relationships');
    expect(after.filter((r) => r.from_source_id === CAROL && r.to_source_id === GONE_POLICY)).toHaveLength(1);
  });
});
