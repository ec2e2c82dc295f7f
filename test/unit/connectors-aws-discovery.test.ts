/**
 * Cloud provider A (AWS) discovery, one page at a time against the local STS + IAM
 * (infra/local/stand-ins/aws.ts), on what the end-to-end test does not meet: tracks and
 * cursors it did not write, principals it cannot evaluate, each STS failure, role sessions
 * without credentials or expiry, IAM errors other than a refusal, and sparse answers (no
 * lists, IsTruncated without a Marker).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { awsDiscovery } from '../../shared/connectors/aws/discovery';
import type { AwsConfiguration, AwsScope } from '../../shared/connectors/aws/integration';
import type { DiscoveryContext, PageOutcome, TrackCursor } from '../../shared/connectors/discovery';
import { AWS_ACCOUNT, AWS_SECOND_ACCOUNT, awsRole, awsSecondRole, awsUser, errorReply, okReply, sampleAccounts, startFakeAws, type FakeAws } from '../../infra/local/stand-ins/aws';

const userKeys: AwsConfiguration = { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1' };
const viaRole: AwsConfiguration = { ...userKeys, role_arn: awsRole.arn, external_id: awsRole.externalId };
const scope: AwsScope = { account_ids: [AWS_ACCOUNT, AWS_SECOND_ACCOUNT] };
const trackA = `account:${AWS_ACCOUNT}`;

let aws: FakeAws;
beforeAll(async () => {
  aws = await startFakeAws();
});
afterAll(() => aws.close());
beforeEach(() => {
  aws.calls.length = 0;
  aws.state.accounts = sampleAccounts();
  aws.state.users = [awsUser];
  aws.state.roles = [awsRole, awsSecondRole];
  aws.state.denied = {};
  aws.state.replies = undefined;
  aws.state.detailsPageSize = 100;
});

function context(session = new Map<string, unknown>(), now = () => Date.now()): DiscoveryContext {
  return {
    signal: new AbortController().signal,
    endpoints: { sts: aws.url, iam: aws.url },
    pacer: { wait: () => Promise.resolve(), observe: () => undefined, requests: 0 },
    session,
    now,
  };
}

function readPage(configuration: AwsConfiguration, cursor: TrackCursor | null, options: { track?: string; ctx?: DiscoveryContext } = {}): Promise<PageOutcome> {
  return awsDiscovery.readPage({ configuration, scope }, options.track ?? trackA, cursor, options.ctx ?? context());
}

const failedWith = (message: string | RegExp) => ({ kind: 'failed', remediation: [expect.objectContaining({ message: typeof message === 'string' ? message : expect.stringMatching(message) })] });
const actions = () => aws.calls.map((c) => c.action);
/** Keys of a user the fake knows, with another ARN. */
function keysFor(arn: string): AwsConfiguration {
  const user = { arn, accessKeyId: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`, secretAccessKey: 'otherLocalSecretKey/ForTheFakeAws+000000' };
  aws.state.users.push(user);
  return { access_key_id: user.accessKeyId, secret_access_key: user.secretAccessKey, region: 'eu-west-1' };
}

describe('what the connector did not write', () => {
  it('refuses a track that is not an account in scope, and a cursor of another shape, without calling AWS', async () => {
    for (const track of ['account:999999999999', 'user:alice', `account:${AWS_ACCOUNT}x`]) {
      expect(await readPage(viaRole, null, { track })).toEqual(failedWith(`AWS answered unexpectedly (track ${track} is not an account in scope).`));
    }
    for (const cursor of [{ phase: 'members', marker: null, refused: [] }, { phase: 'groups', marker: '', refused: [] }, { phase: 'groups', marker: null, refused: [], extra: 1 }]) {
      expect(await readPage(viaRole, cursor as TrackCursor)).toEqual(failedWith('AWS answered unexpectedly (the saved cursor is not one this connector writes).'));
    }
    expect(aws.calls).toEqual([]);
  });
});

describe('access with the keys alone', () => {
  it("the root user's keys fail, naming the account", async () => {
    const outcome = await readPage(keysFor(`arn:aws:iam::${AWS_ACCOUNT}:root`), null);
    expect(outcome).toEqual(failedWith(`The access key belongs to the root user of account ${AWS_ACCOUNT}, which no policy can limit.`));
    expect(actions()).toEqual(['GetCallerIdentity']);
  });

  it('a caller that is no IAM user (a federated session), or that STS does not name, cannot be evaluated', async () => {
    const federated = `arn:aws:sts::${AWS_ACCOUNT}:federated-user/bob`;
    expect(await readPage(keysFor(federated), null)).toEqual(failedWith(`IAM cannot evaluate the permissions of ${federated}.`));
    aws.state.replies = { GetCallerIdentity: okReply('sts', 'GetCallerIdentity', `<UserId>AIDA0001</UserId><Account>${AWS_ACCOUNT}</Account>`) };
    expect(await readPage(userKeys, null)).toEqual(failedWith('IAM cannot evaluate the permissions of .'));
    expect(actions().filter((a) => a !== 'GetCallerIdentity')).toEqual([]);
  });

  it('the caller is asked once per step', async () => {
    const ctx = context();
    const first = await readPage(userKeys, null, { ctx });
    expect(first.kind).toBe('page');
    await readPage(userKeys, first.kind === 'page' ? first.next : null, { ctx });
    expect(actions().filter((a) => a === 'GetCallerIdentity')).toHaveLength(1);
  });

  it('STS errors: a region where STS is off, a refusal (unusable keys), any other error with its status', async () => {
    aws.state.replies = { GetCallerIdentity: errorReply('sts', 403, 'RegionDisabledException', 'STS is not activated in this region for account:123456789012.') };
    expect(await readPage(userKeys, null)).toEqual(failedWith('AWS STS is not activated in region eu-west-1.'));
    aws.state.replies = { GetCallerIdentity: errorReply('sts', 403, 'AccessDenied', 'Access denied') };
    expect(await readPage(userKeys, null)).toEqual({ kind: 'failed', remediation: [expect.objectContaining({ category: 'credentials', message: 'AWS rejected the access key (AccessDenied).' })] });
    aws.state.replies = { GetCallerIdentity: errorReply('sts', 400, 'ValidationError', 'Something odd') };
    expect(await readPage(userKeys, null)).toEqual(failedWith('AWS STS answered unexpectedly (ValidationError, HTTP 400).'));
  });
});

describe('access through the role', () => {
  it('refused AssumeRole, and STS cannot name the caller either: the trust statement names the IAM user of the key', async () => {
    aws.state.replies = {
      AssumeRole: errorReply('sts', 403, 'AccessDenied', 'not authorized to perform: sts:AssumeRole'),
      GetCallerIdentity: errorReply('sts', 400, 'ValidationError', 'Something odd'),
    };
    const outcome = await readPage(viaRole, null);
    expect(outcome).toEqual({ kind: 'refused', remediation: [expect.objectContaining({ category: 'permissions', message: `AWS refused sts:AssumeRole on ${awsRole.arn} for the IAM user of access_key_id.` })] });
    expect(actions()).toEqual(['AssumeRole', 'GetCallerIdentity']);
  });

  it('an AssumeRole answer without credentials fails, one with other STS errors too', async () => {
    aws.state.replies = { AssumeRole: okReply('sts', 'AssumeRole', `<AssumedRoleUser><Arn>arn:aws:sts::${AWS_ACCOUNT}:assumed-role/TesseraDiscovery/s</Arn></AssumedRoleUser>`) };
    expect(await readPage(viaRole, null)).toEqual(failedWith('AWS STS answered unexpectedly (AssumeRole answered no credentials).'));
    aws.state.replies = { AssumeRole: okReply('sts', 'AssumeRole', `<Credentials><AccessKeyId>ASIAONLYTHEID0000000</AccessKeyId></Credentials>`) };
    expect(await readPage(viaRole, null)).toEqual(failedWith('AWS STS answered unexpectedly (AssumeRole answered no credentials).'));
    aws.state.replies = { AssumeRole: errorReply('sts', 403, 'RegionDisabledException', 'STS is not activated in this region.') };
    expect(await readPage(viaRole, null)).toEqual(failedWith('AWS STS is not activated in region eu-west-1.'));
    expect(actions().filter((a) => a !== 'AssumeRole')).toEqual([]);
  });

  it('a session without an expiry is kept for the whole step; one about to expire is made again', async () => {
    // The session STS hands out is the user's own keys (the fake knows them), with no Expiration.
    aws.state.replies = {
      AssumeRole: okReply('sts', 'AssumeRole', `<Credentials><AccessKeyId>${awsUser.accessKeyId}</AccessKeyId><SecretAccessKey>${awsUser.secretAccessKey}</SecretAccessKey><SessionToken>token</SessionToken></Credentials>`),
    };
    let now = Date.now();
    const ctx = context(new Map(), () => now);
    const first = await readPage(viaRole, null, { ctx });
    expect(first).toMatchObject({ kind: 'page', next: { phase: 'users' } });
    now += 24 * 3_600_000;
    expect(await readPage(viaRole, first.kind === 'page' ? first.next : null, { ctx })).toMatchObject({ kind: 'page', next: { phase: 'roles' } });
    expect(actions().filter((a) => a === 'AssumeRole')).toHaveLength(1);

    // The fake's own sessions expire in 15 minutes: 14½ minutes later, within the margin, a new one.
    aws.state.replies = undefined;
    aws.calls.length = 0;
    now = Date.now();
    const expiring = context(new Map(), () => now);
    const page = await readPage(viaRole, null, { ctx: expiring });
    now += 14.5 * 60_000;
    await readPage(viaRole, page.kind === 'page' ? page.next : null, { ctx: expiring });
    expect(actions().filter((a) => a === 'AssumeRole')).toHaveLength(2);
  });
});

describe('IAM answers', () => {
  it('sparse GetAccountAuthorizationDetails answers (no lists): empty pages, each phase to the next', async () => {
    aws.state.replies = { GetAccountAuthorizationDetails: okReply('iam', 'GetAccountAuthorizationDetails', '<IsTruncated>false</IsTruncated>') };
    const ctx = context();
    for (const [phase, next] of [['groups', 'users'], ['users', 'roles'], ['roles', 'policies'], ['policies', 'aliases']] as const) {
      const outcome = await readPage(viaRole, { phase, marker: null, refused: [] }, { ctx });
      expect(outcome, phase).toEqual({ kind: 'page', entities: [], relationships: [], next: { phase: next, marker: null, refused: [] } });
    }
  });

  it('IsTruncated without a Marker ends the phase, and ends the group index read', async () => {
    aws.state.replies = { GetAccountAuthorizationDetails: okReply('iam', 'GetAccountAuthorizationDetails', '<IsTruncated>true</IsTruncated><GroupDetailList/>') };
    expect(await readPage(viaRole, { phase: 'users', marker: null, refused: ['iam:ListAccountAliases'] })).toEqual({
      kind: 'page',
      entities: [],
      relationships: [],
      next: { phase: 'roles', marker: null, refused: ['iam:ListAccountAliases'] },
    });
    // One call for the group index, one for the users.
    expect(actions().filter((a) => a === 'GetAccountAuthorizationDetails')).toHaveLength(2);
  });

  it('the group index is read to its last marker before the users', async () => {
    aws.state.detailsPageSize = 1;
    const outcome = await readPage(viaRole, { phase: 'users', marker: null, refused: [] });
    const groups = aws.state.accounts[AWS_ACCOUNT]!.groups.length;
    expect(groups).toBeGreaterThan(1);
    const reads = aws.calls.filter((c) => c.action === 'GetAccountAuthorizationDetails');
    expect(reads.map((c) => c.params.get('Filter.member.1'))).toEqual([...Array<string>(groups).fill('Group'), 'User']);
    // The user on the page names its groups by ARN, resolved through the index.
    expect(outcome).toMatchObject({ kind: 'page', next: { phase: 'users', marker: expect.any(String) } });
  });

  it('GetAccountAuthorizationDetails refused while reading the group index: on to the aliases, the action remembered', async () => {
    aws.state.denied[awsRole.arn] = { 'iam:GetAccountAuthorizationDetails': 'implicitDeny' };
    expect(await readPage(viaRole, { phase: 'users', marker: null, refused: [] })).toEqual({
      kind: 'page',
      entities: [],
      relationships: [],
      next: { phase: 'aliases', marker: null, refused: ['iam:GetAccountAuthorizationDetails'] },
    });
    // The users are not asked for once the index was refused.
    expect(aws.calls.filter((c) => c.action === 'GetAccountAuthorizationDetails').map((c) => c.params.get('Filter.member.1'))).toEqual(['Group']);
  });

  it('ListAccountAliases: a sparse answer names the account by its id; an error other than a refusal fails the page', async () => {
    aws.state.replies = { ListAccountAliases: okReply('iam', 'ListAccountAliases', '<IsTruncated>false</IsTruncated>') };
    const sparse = await readPage(viaRole, { phase: 'aliases', marker: null, refused: [] });
    expect(sparse).toMatchObject({ kind: 'page', next: null, entities: [expect.objectContaining({ kind: 'CloudAccountBoundary', source_id: AWS_ACCOUNT, display_name: AWS_ACCOUNT })] });
    aws.state.replies = { ListAccountAliases: errorReply('iam', 400, 'InvalidInput', 'Something odd') };
    expect(await readPage(viaRole, { phase: 'aliases', marker: null, refused: [] })).toEqual(failedWith('AWS IAM answered unexpectedly (InvalidInputException, HTTP 400).'));
  });

  it('the refusal phase names each refused action for the principal read, in a fixed order', async () => {
    const outcome = await readPage(viaRole, { phase: 'refusal', marker: null, refused: ['iam:ListAccountAliases', 'iam:GetAccountAuthorizationDetails'] });
    expect(outcome.kind).toBe('refused');
    expect(outcome.kind === 'refused' && outcome.remediation.map((r) => r.message)).toEqual([
      `iam:GetAccountAuthorizationDetails is not allowed for ${awsRole.arn}.`,
      `iam:ListAccountAliases is not allowed for ${awsRole.arn}.`,
    ]);
  });
});
