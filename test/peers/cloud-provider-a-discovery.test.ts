/**
 * Discovery of cloud provider A (AWS) against the local STS + IAM, driven like the run engine
 * drives it (test/support/discovery-driver.ts): every account track to its end through
 * GetAccountAuthorizationDetails pages smaller than the data, the mapping checked entity by
 * entity, refusals per track, bad credentials, throttling waited out, and what a second read
 * after a change answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findIntegration } from '../../shared/connectors/catalog';
import type { AwsConfiguration, AwsScope } from '../../shared/connectors/aws/integration';
import { AWS_DISCOVERY_MAX_ATTEMPTS } from '../../shared/connectors/aws/discovery-clients';
import { countByKind, danglingEnds, driveDiscovery, inventory, relationshipKeys, type DiscoveryRead } from '../support/discovery-driver';
import { ADMINISTRATOR_ACCESS, SECURITY_AUDIT, READ_ONLY_ACCESS, attachedPolicyArns } from '../../infra/local/stand-ins/aws-iam-directory';
import { AWS_ACCOUNT, AWS_SECOND_ACCOUNT, awsRole, awsSecondRole, awsUser, sampleAccounts, startFakeAws, type FakeAws } from '../../infra/local/stand-ins/aws';
import { connectorOf } from '../../shared/connectors/connector-registry';

const integration = findIntegration('int_aws_iam_discovery')!;
const userKeys: AwsConfiguration = { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1' };
const viaRole: AwsConfiguration = { ...userKeys, role_arn: awsRole.arn, external_id: awsRole.externalId };
const bothAccounts: AwsScope = { account_ids: [AWS_ACCOUNT, AWS_SECOND_ACCOUNT] };
const trackA = `account:${AWS_ACCOUNT}`;
const trackB = `account:${AWS_SECOND_ACCOUNT}`;
const PAGE = 2;

let aws: FakeAws;
beforeAll(async () => {
  aws = await startFakeAws();
});
afterAll(() => aws.close());
beforeEach(() => {
  aws.calls.length = 0;
  aws.state.accounts = sampleAccounts();
  aws.state.detailsPageSize = PAGE;
  aws.state.denied = {};
  aws.state.roles = [awsRole, awsSecondRole];
  aws.state.throttle = undefined;
  aws.state.throttleBurst = undefined;
  aws.state.hang = undefined;
});

async function discover(configuration: AwsConfiguration = viaRole, scope: AwsScope = bothAccounts, endpoint = aws.url): Promise<DiscoveryRead> {
  expect(integration.configurationSchema.safeParse(configuration).success).toBe(true);
  expect(integration.scopeSchema.safeParse(scope).success).toBe(true);
  const read = await driveDiscovery(connectorOf(integration).discover, { configuration, scope }, { endpoints: { sts: endpoint, iam: endpoint } });
  // Nothing secret in any outcome or cursor: not the configured keys, not the sessions made from them.
  const text = JSON.stringify([read.outcomes, Object.values(read.tracks).map((t) => t.cursors)]);
  for (const secret of [configuration.secret_access_key, configuration.external_id, ...aws.issuedSecrets]) {
    if (secret) expect(text).not.toContain(secret);
  }
  for (const track of Object.values(read.tracks)) {
    for (const cursor of track.cursors) expect(Buffer.byteLength(cursor)).toBeLessThan(8 * 1024);
  }
  return read;
}

/** What the sample directory holds, counted from its data (not from the connector's mapping). */
function expectedCounts() {
  const accounts = Object.values(sampleAccounts());
  const inline = (entities: { inline?: object }[]) => entities.reduce((n, e) => n + Object.keys(e.inline ?? {}).length, 0);
  const listedPolicies = new Set(
    accounts.flatMap((a) => a.policies.filter((p) => !p.arn.includes(':iam::aws:') || attachedPolicyArns(a).has(p.arn)).map((p) => p.arn)),
  );
  return {
    Account: accounts.reduce((n, a) => n + a.users.length + a.roles.length, 0),
    Entitlement: accounts.reduce((n, a) => n + a.groups.length + inline(a.groups) + inline(a.users) + inline(a.roles), 0) + listedPolicies.size,
    CloudAccountBoundary: accounts.length,
  };
}

function diff(before: Iterable<string>, after: Iterable<string>): { added: string[]; removed: string[] } {
  const a = new Set(before);
  const b = new Set(after);
  return { added: [...b].filter((k) => !a.has(k)).sort(), removed: [...a].filter((k) => !b.has(k)).sort() };
}

describe('cloud provider A (AWS) discovery', () => {
  it('reads every account to the end, following IAM markers page by page, through the role of each account', async () => {
    const read = await discover();
    expect(read.tracks[trackA]).toMatchObject({ status: 'complete', remediation: [] });
    expect(read.tracks[trackB]).toMatchObject({ status: 'complete', remediation: [] });

    const entities = [...inventory(read).values()];
    const expected = expectedCounts();
    expect(countByKind(entities)).toEqual({ ...expected, Principal: 5, Resource: 5 });
    expect(danglingEnds(read)).toEqual([]);

    // Pages of two: every phase with more than two items was followed through its markers.
    const details = aws.calls.filter((c) => c.action === 'GetAccountAuthorizationDetails');
    expect(details.length).toBeGreaterThan(0);
    expect([...new Set(details.map((c) => c.params.get('MaxItems')))]).toEqual(['100']);
    const userPages = details.filter((c) => c.params.get('Filter.member.1') === 'User' && c.accessKeyId !== awsUser.accessKeyId);
    expect(userPages.map((c) => c.params.get('Marker') !== null)).toEqual([false, true, true, false]); // 5 users in A, 1 in B
    // Other accounts are read through the role of the same path and name, with the same external id.
    const assumed = aws.calls.filter((c) => c.action === 'AssumeRole');
    expect(new Set(assumed.map((c) => c.params.get('RoleArn')))).toEqual(new Set([awsRole.arn, awsSecondRole.arn]));
    expect(assumed.every((c) => c.params.get('ExternalId') === awsRole.externalId && c.accessKeyId === awsUser.accessKeyId)).toBe(true);
    // Every request went through the pacer, in its account's bucket.
    expect(read.pacer.requests).toBe(aws.calls.length);
  });

  it('maps users, groups, roles, policies and the statements that name resources', async () => {
    const read = await discover();
    const entities = inventory(read);
    const relationships = relationshipKeys(read);
    const arn = (path: string) => `arn:aws:iam::${AWS_ACCOUNT}:${path}`;
    const has = (kind: string, from: string, to: string) => relationships.has(`${kind} ${from} -> ${to}`);

    // One Principal for one email across accounts; a user without the tag stands for itself.
    expect(entities.get('Principal alice@example.com')?.attributes).toEqual({ identified_by: 'email_tag', email: 'alice@example.com' });
    expect(has('principal_represents_account', 'Principal:alice@example.com', `Account:${arn('user/alice')}`)).toBe(true);
    expect(has('principal_represents_account', 'Principal:alice@example.com', `Account:arn:aws:iam::${AWS_SECOND_ACCOUNT}:user/alice.ops`)).toBe(true);
    expect(has('principal_represents_account', 'Principal:AIDABOB0000000000001', `Account:${arn('user/bob')}`)).toBe(true);

    // A group named in GroupList resolves to its ARN with its path; its policies reach the member.
    const developers = arn('group/engineering/Developers');
    expect(has('account_assigned_entitlement', `Account:${arn('user/bob')}`, `Entitlement:${developers}`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${arn('user/bob')}`, `Entitlement:${arn('policy/engineering/DevS3')}`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${arn('user/bob')}`, `Entitlement:${developers}#ReadLogs`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${arn('user/alice')}`, `Entitlement:${ADMINISTRATOR_ACCESS}`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${arn('role/AppRole')}`, `Entitlement:${arn('role/AppRole')}#AppData`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${arn('role/discovery/TesseraDiscovery')}`, `Entitlement:${SECURITY_AUDIT}`)).toBe(true);

    // Resources: Allow statements of the DEFAULT version only, never `*`, never a Deny.
    expect([...entities.values()].filter((e) => e.kind === 'Resource').map((e) => e.source_id).sort()).toEqual([
      `arn:aws:dynamodb:eu-west-1:${AWS_ACCOUNT}:table/orders`,
      `arn:aws:logs:eu-west-1:${AWS_ACCOUNT}:log-group:/app/*`,
      'arn:aws:s3:::bob-bucket/*',
      'arn:aws:s3:::dev-bucket',
      'arn:aws:s3:::dev-bucket/*',
    ]);
    expect(has('entitlement_grants_resource', `Entitlement:${arn('policy/engineering/DevS3')}`, 'Resource:arn:aws:s3:::dev-bucket/*')).toBe(true);
    expect(has('entitlement_grants_resource', `Entitlement:${arn('user/bob')}#BobBucket`, 'Resource:arn:aws:s3:::bob-bucket/*')).toBe(true);
    expect(entities.get(`Entitlement ${arn('role/AppRole')}#AppData`)?.attributes).toMatchObject({ allowed_actions: ['dynamodb:GetItem', 'dynamodb:Query'], allows_all_resources: true });

    expect(entities.get(`Account ${arn('role/AppRole')}`)?.attributes).toMatchObject({ type: 'iam_role', trusted_principals: ['Service:ec2.amazonaws.com'] });
    // Permissions boundaries, as IAM writes them in UserDetail and RoleDetail: the boundary's ARN
    // on the identity, and no grant from it (a boundary only limits what the identity's policies allow).
    expect(entities.get(`Account ${arn('user/service/ci-deployer')}`)?.attributes).toMatchObject({ permissions_boundary_arn: arn('policy/engineering/DevS3') });
    expect(entities.get(`Account ${arn('role/AppRole')}`)?.attributes).toMatchObject({ permissions_boundary_arn: SECURITY_AUDIT });
    expect(entities.get(`Account ${arn('user/bob')}`)?.attributes).toMatchObject({ permissions_boundary_arn: null });
    expect(has('account_assigned_entitlement', `Account:${arn('role/AppRole')}`, `Entitlement:${SECURITY_AUDIT}`)).toBe(false);
    expect(entities.get(`Entitlement ${ADMINISTRATOR_ACCESS}`)?.attributes).toMatchObject({ aws_managed: true, allowed_actions: ['*'], allows_all_resources: true });
    expect(entities.has(`Entitlement ${READ_ONLY_ACCESS}`)).toBe(false); // attached to nothing
    expect(entities.get(`CloudAccountBoundary ${AWS_ACCOUNT}`)).toMatchObject({ display_name: 'tessera-prod', attributes: { alias: 'tessera-prod' } });
    expect(entities.get(`CloudAccountBoundary ${AWS_SECOND_ACCOUNT}`)).toMatchObject({ display_name: AWS_SECOND_ACCOUNT, attributes: { alias: null } });
  });

  it("emits exactly the kinds the catalog lists for the integration", async () => {
    const read = await discover();
    expect(new Set(read.entities.map((e) => e.kind))).toEqual(new Set(integration.emits_entities));
    expect(new Set(read.relationships.map((r) => r.kind))).toEqual(new Set(integration.emits_relationships));
  });

  it('reads the same source ids twice, and after a change exactly the change', async () => {
    const firstRead = await discover();
    const first = inventory(firstRead);
    const second = inventory(await discover());
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [key, entity] of first) expect(second.get(key)?.attributes, key).toEqual(entity.attributes);

    // A new user in a group, and an inline policy taken off a group.
    const directory = aws.state.accounts[AWS_ACCOUNT]!;
    directory.users.push({ name: 'dave', id: 'AIDADAVE000000000001', groups: ['Auditors'], tags: { email: 'dave@example.com' } });
    directory.groups.find((g) => g.name === 'Developers')!.inline = {};
    const thirdRead = await discover();
    const third = inventory(thirdRead);

    const a = (path: string) => `arn:aws:iam::${AWS_ACCOUNT}:${path}`;
    expect(diff(first.keys(), third.keys())).toEqual({
      added: [`Account ${a('user/dave')}`, 'Principal dave@example.com'],
      removed: [`Entitlement ${a('group/engineering/Developers')}#ReadLogs`, `Resource arn:aws:logs:eu-west-1:${AWS_ACCOUNT}:log-group:/app/*`],
    });
    const changed = [...first.keys()].filter((k) => third.has(k) && JSON.stringify(third.get(k)!.attributes) !== JSON.stringify(first.get(k)!.attributes));
    expect(changed).toEqual([`Entitlement ${a('group/engineering/Developers')}`]); // its inline_policy_names
    expect(diff(relationshipKeys(firstRead), relationshipKeys(thirdRead))).toEqual({
      added: [
        `account_assigned_entitlement Account:${a('user/dave')} -> Entitlement:${a('group/Auditors')}`,
        `account_assigned_entitlement Account:${a('user/dave')} -> Entitlement:${SECURITY_AUDIT}`,
        `principal_represents_account Principal:dave@example.com -> Account:${a('user/dave')}`,
      ],
      removed: [
        `account_assigned_entitlement Account:${a('user/alice')} -> Entitlement:${a('group/engineering/Developers')}#ReadLogs`,
        `account_assigned_entitlement Account:${a('user/bob')} -> Entitlement:${a('group/engineering/Developers')}#ReadLogs`,
        `entitlement_grants_resource Entitlement:${a('group/engineering/Developers')}#ReadLogs -> Resource:arn:aws:logs:eu-west-1:${AWS_ACCOUNT}:log-group:/app/*`,
      ],
    });
  });

  it('refuses only the account whose role lacks GetAccountAuthorizationDetails, with the statement to attach; the other completes', async () => {
    aws.state.denied[awsSecondRole.arn] = { 'iam:GetAccountAuthorizationDetails': 'implicitDeny' };
    const read = await discover();
    expect(read.tracks[trackA]?.status).toBe('complete');
    expect(read.tracks[trackB]).toMatchObject({
      status: 'refused',
      remediation: [
        {
          category: 'permissions',
          message: `iam:GetAccountAuthorizationDetails is not allowed for ${awsSecondRole.arn}.`,
          action:
            `Attach to ${awsSecondRole.arn} (inline or through a managed policy) this IAM policy statement: ` +
            '{"Effect":"Allow","Action":"iam:GetAccountAuthorizationDetails","Resource":"*"}. ' +
            'Without it discovery would miss IAM users, groups, roles and their policies (every Principal, Entitlement and assignment).',
        },
      ],
    });
    // What could be read still was: the account itself.
    expect(read.entities.filter((e) => e.track === trackB).map((e) => `${e.kind} ${e.source_id}`)).toEqual([`CloudAccountBoundary ${AWS_SECOND_ACCOUNT}`]);
  });

  it('without ListAccountAliases reads everything, names the account by its id, then refuses with that statement', async () => {
    aws.state.denied[awsRole.arn] = { 'iam:ListAccountAliases': 'implicitDeny' };
    const read = await discover(viaRole, { account_ids: [AWS_ACCOUNT] });
    expect(read.tracks[trackA]?.status).toBe('refused');
    expect(read.tracks[trackA]?.remediation.map((r) => [r.category, r.message])).toEqual([['permissions', `iam:ListAccountAliases is not allowed for ${awsRole.arn}.`]]);
    const entities = inventory(read);
    expect(entities.get(`CloudAccountBoundary ${AWS_ACCOUNT}`)?.display_name).toBe(AWS_ACCOUNT);
    expect(countByKind([...entities.values()]).Account).toBe(7);
  });

  it('refuses an account whose role cannot be assumed, naming the trust policy statement', async () => {
    aws.state.roles = [awsRole];
    const read = await discover();
    expect(read.tracks[trackA]?.status).toBe('complete');
    expect(read.tracks[trackB]?.status).toBe('refused');
    expect(read.tracks[trackB]?.remediation).toEqual([
      expect.objectContaining({ category: 'permissions', message: `AWS refused sts:AssumeRole on ${awsSecondRole.arn} for ${awsUser.arn}.` }),
    ]);
  });

  it('with keys and no role, reads their own account and refuses any other with the configuration to add', async () => {
    const read = await discover(userKeys);
    expect(read.tracks[trackA]?.status).toBe('complete');
    expect(read.tracks[trackB]).toMatchObject({
      status: 'refused',
      remediation: [expect.objectContaining({ category: 'configuration', message: `Account ${AWS_SECOND_ACCOUNT} is in scope, but the access key belongs to ${awsUser.arn} of another account and no role_arn is configured.` })],
    });
    expect(aws.calls.some((c) => c.action === 'AssumeRole')).toBe(false);
  });

  it('fails every track with a credentials item when the keys are rejected', async () => {
    const read = await discover({ ...viaRole, secret_access_key: 'A'.repeat(40) });
    for (const track of [trackA, trackB]) {
      expect(read.tracks[track]).toMatchObject({ status: 'failed', remediation: [expect.objectContaining({ category: 'credentials', message: expect.stringContaining('SignatureDoesNotMatch') })] });
    }
    const unknown = await discover({ ...userKeys, access_key_id: 'AKIAUNKNOWNKEY000000' });
    expect(unknown.tracks[trackA]?.remediation).toEqual([expect.objectContaining({ category: 'credentials', message: 'AWS rejected the access key (InvalidClientTokenId).' })]);
  });

  it('lets the SDK retry a short throttling burst, and waits out a longer one until the time it asked for', async () => {
    aws.state.throttleBurst = { action: 'ListAccountAliases', count: AWS_DISCOVERY_MAX_ATTEMPTS - 1 };
    const short = await discover(viaRole, { account_ids: [AWS_ACCOUNT] });
    expect(short.tracks[trackA]).toMatchObject({ status: 'complete', throttles: [] });
    expect(aws.calls.filter((c) => c.action === 'ListAccountAliases')).toHaveLength(AWS_DISCOVERY_MAX_ATTEMPTS);

    aws.calls.length = 0;
    aws.state.throttleBurst = { action: 'GetAccountAuthorizationDetails', count: AWS_DISCOVERY_MAX_ATTEMPTS + 1 };
    const long = await discover(viaRole, { account_ids: [AWS_ACCOUNT] });
    expect(long.tracks[trackA]?.status).toBe('complete');
    const [throttle] = long.tracks[trackA]!.throttles;
    expect(long.tracks[trackA]!.throttles).toHaveLength(1);
    expect(throttle!.retryAtMs).toBeGreaterThanOrEqual(throttle!.at + 1_000 - 50);
    const details = aws.calls.filter((c) => c.action === 'GetAccountAuthorizationDetails');
    // The SDK's attempts, then nothing until the advertised time, then the same page again.
    expect(details[AWS_DISCOVERY_MAX_ATTEMPTS]!.at).toBeGreaterThanOrEqual(throttle!.retryAtMs);
    expect(details[AWS_DISCOVERY_MAX_ATTEMPTS]!.params.get('Marker')).toBeNull();
    expect(long.pacer.observed).toEqual([expect.objectContaining({ bucket: `aws:iam:${AWS_ACCOUNT}`, retryAtMs: throttle!.retryAtMs })]);
    expect(countByKind([...inventory(long).values()]).Account).toBe(7);
  });

  it('reports a provider that is down or silent as connectivity', async () => {
    const closed = await startFakeAws();
    const url = closed.url;
    await closed.close();
    const down = await discover(viaRole, { account_ids: [AWS_ACCOUNT] }, url);
    expect(down.tracks[trackA]).toMatchObject({ status: 'failed', remediation: [expect.objectContaining({ category: 'connectivity', message: 'AWS STS could not be reached (ECONNREFUSED).' })] });

    aws.state.hang = 'iam';
    const signal = AbortSignal.timeout(300);
    const outcome = await connectorOf(integration).discover.readPage({ configuration: viaRole, scope: bothAccounts }, trackA, null, {
      signal,
      endpoints: { sts: aws.url, iam: aws.url },
      pacer: { wait: () => Promise.resolve(), observe: () => undefined, requests: 0 },
      session: new Map(),
      now: () => Date.now(),
    });
    expect(outcome).toEqual({ kind: 'failed', remediation: [expect.objectContaining({ category: 'connectivity', message: expect.stringMatching(/^AWS IAM did not answer within/) })] });
  });
});
