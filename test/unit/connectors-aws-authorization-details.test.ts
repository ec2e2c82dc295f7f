/**
 * The IAM authorization details mapping on the sparse and odd answers IAM (or a proxy of it)
 * may give: items without the fields that identify them are skipped, absent optional fields
 * become explicit defaults, tags and dates that are not what they claim are not believed.
 * And the page builder's own rules: one of each item, a bounded cursor, a read that never throws.
 */
import { describe, expect, it } from 'vitest';
import { groupIndexOf, mapBoundary, mapGroups, mapManagedPolicies, mapRoles, mapUsers } from '../../shared/connectors/aws/authorization-details';
import { MAX_CURSOR_BYTES, PageBuilder, readNeverThrows, retryAtFrom } from '../../shared/connectors/discovery-page';
import type { ObservedEntity, PageOutcome } from '../../shared/connectors/discovery';

const ACCOUNT = '111122223333';
const doc = (statement: unknown) => encodeURIComponent(JSON.stringify({ Version: '2012-10-17', Statement: statement }));

function pageOf(build: (page: PageBuilder) => void): Extract<PageOutcome, { kind: 'page' }> {
  const page = new PageBuilder();
  build(page);
  const out = page.page(null, 'cloud_provider_a');
  if (out.kind !== 'page') throw new Error(`not a page: ${out.kind}`);
  return out;
}
const entity = (out: Extract<PageOutcome, { kind: 'page' }>, sourceId: string): ObservedEntity | undefined => out.entities.find((e) => e.source_id === sourceId);

describe('IAM authorization details, sparse answers', () => {
  it('skips groups, users, roles and policies without an ARN, and users and roles without a name', () => {
    const out = pageOf((page) => {
      mapGroups(ACCOUNT, [{ GroupName: 'no-arn' }], page);
      mapUsers(ACCOUNT, [{ UserName: 'no-arn' }, { Arn: 'arn:aws:iam::111122223333:user/x' }], new Map(), page);
      mapRoles(ACCOUNT, [{ RoleName: 'no-arn' }, { Arn: 'arn:aws:iam::111122223333:role/x' }], page);
      mapManagedPolicies([{ PolicyName: 'no-arn' }], page);
    });
    expect(out.entities).toEqual([]);
    expect(out.relationships).toEqual([]);
    expect(groupIndexOf([{ GroupName: 'no-arn' }]).size).toBe(0);
  });

  it('names a managed policy or a group listed without its name from its ARN, as moto lists them', () => {
    const policyArn = 'arn:aws:iam::111122223333:policy/engineering/DevS3';
    const groupArn = 'arn:aws:iam::111122223333:group/teams/Developers';
    const out = pageOf((page) => {
      mapManagedPolicies([{ Arn: policyArn, PolicyId: 'ANPA1' }, { Arn: 'arn:aws:iam::aws:policy/job-function/ViewOnlyAccess' }], page);
      mapGroups(ACCOUNT, [{ Arn: groupArn }], page);
    });
    expect(entity(out, policyArn)).toMatchObject({ kind: 'Entitlement', display_name: 'DevS3', attributes: { name: 'DevS3', type: 'managed_policy', aws_managed: false } });
    expect(entity(out, 'arn:aws:iam::aws:policy/job-function/ViewOnlyAccess')).toMatchObject({ display_name: 'ViewOnlyAccess', attributes: { aws_managed: true } });
    expect(entity(out, groupArn)).toMatchObject({ kind: 'Entitlement', display_name: 'Developers', attributes: { name: 'Developers' } });
    expect(groupIndexOf([{ Arn: groupArn }]).get('developers')).toMatchObject({ arn: groupArn });
  });

  it('fills what IAM left out with explicit defaults: path /, null ids and dates, no policies', () => {
    const groupArn = 'arn:aws:iam::111122223333:group/bare';
    const userArn = 'arn:aws:iam::111122223333:user/bare';
    const roleArn = 'arn:aws:iam::111122223333:role/bare';
    const out = pageOf((page) => {
      mapGroups(ACCOUNT, [{ Arn: groupArn, GroupName: 'bare' }], page);
      mapUsers(ACCOUNT, [{ Arn: userArn, UserName: 'bare', CreateDate: new Date('not a date') }], new Map(), page);
      mapRoles(ACCOUNT, [{ Arn: roleArn, RoleName: 'bare' }], page);
    });
    expect(entity(out, groupArn)?.attributes).toEqual({
      type: 'iam_group', account_id: ACCOUNT, name: 'bare', path: '/', unique_id: null, created_at: null, managed_policy_arns: [], inline_policy_names: [],
    });
    expect(entity(out, userArn)?.attributes).toEqual({
      type: 'iam_user', account_id: ACCOUNT, name: 'bare', path: '/', unique_id: null, created_at: null, permissions_boundary_arn: null, email: null,
    });
    // Without a user id or an email tag, the Principal is known by the ARN.
    expect(entity(out, userArn)).toBeDefined();
    expect(out.entities.filter((e) => e.kind === 'Principal')).toEqual([
      { kind: 'Principal', source_id: userArn, display_name: 'bare', attributes: { identified_by: 'iam_user_id', email: null } },
    ]);
    expect(entity(out, roleArn)?.attributes).toMatchObject({ path: '/', unique_id: null, created_at: null, service_linked: false, permissions_boundary_arn: null, trusted_principals: [] });
  });

  it('believes an email tag only when it is address-shaped (key in any case), and lower-cases it', () => {
    const users = [
      { Arn: 'arn:aws:iam::111122223333:user/a', UserName: 'a', UserId: 'AIDAA', Tags: [{ Key: 'EMAIL', Value: '  Alice@Example.TEST ' }] },
      { Arn: 'arn:aws:iam::111122223333:user/b', UserName: 'b', UserId: 'AIDAB', Tags: [{ Key: 'email', Value: 'not an address' }] },
      { Arn: 'arn:aws:iam::111122223333:user/c', UserName: 'c', UserId: 'AIDAC', Tags: [{ Value: 'c@example.test' }, { Key: 'email' }] },
    ];
    const out = pageOf((page) => mapUsers(ACCOUNT, users as never, new Map(), page));
    expect(out.entities.filter((e) => e.kind === 'Principal').map((e) => [e.source_id, e.attributes.identified_by])).toEqual([
      ['alice@example.test', 'email_tag'],
      ['AIDAB', 'iam_user_id'],
      ['AIDAC', 'iam_user_id'],
    ]);
  });

  it('a group gone between the two reads gives its member nothing; one present gives its policies', () => {
    const groupArn = 'arn:aws:iam::111122223333:group/ops';
    const index = groupIndexOf([{
      Arn: groupArn, GroupName: 'Ops', AttachedManagedPolicies: [{ PolicyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }, { PolicyName: 'no-arn' }],
      GroupPolicyList: [{ PolicyName: 'inline-ops' }, { PolicyDocument: doc([]) }],
    }]);
    const userArn = 'arn:aws:iam::111122223333:user/u';
    const out = pageOf((page) => mapUsers(ACCOUNT, [{ Arn: userArn, UserName: 'u', UserId: 'AIDAU', GroupList: ['gone', 'OPS'] }], index, page));
    expect(out.relationships.filter((r) => r.kind === 'account_assigned_entitlement').map((r) => r.to.source_id)).toEqual([
      groupArn, 'arn:aws:iam::aws:policy/ReadOnlyAccess', `${groupArn}#inline-ops`,
    ]);
  });

  it('reads a managed policy at its default version, marks AWS managed ones, and relates the resources it allows', () => {
    const out = pageOf((page) => mapManagedPolicies([
      {
        Arn: 'arn:aws:iam::111122223333:policy/app', PolicyName: 'app', DefaultVersionId: 'v2',
        PolicyVersionList: [
          { VersionId: 'v1', Document: doc([{ Effect: 'Allow', Action: 's3:*', Resource: 'arn:aws:s3:::old' }]) },
          { VersionId: 'v2', Document: doc([{ Effect: 'Allow', Action: 's3:GetObject', Resource: ['arn:aws:s3:::bucket/*', 'not-an-arn'] }]) },
        ],
      },
      { Arn: 'arn:aws-us-gov:iam::aws:policy/Gov', PolicyName: 'Gov' },
    ], page));
    expect(entity(out, 'arn:aws:iam::111122223333:policy/app')?.attributes).toMatchObject({ aws_managed: false, default_version_id: 'v2', allowed_actions: ['s3:GetObject'], path: '/', unique_id: null });
    expect(entity(out, 'arn:aws-us-gov:iam::aws:policy/Gov')?.attributes).toMatchObject({ aws_managed: true, default_version_id: null, allowed_actions: [] });
    expect(entity(out, 'arn:aws:s3:::old')).toBeUndefined();
    expect(entity(out, 'arn:aws:s3:::bucket/*')?.attributes).toEqual({ provider: 'aws', service: 's3', pattern: true });
    expect(entity(out, 'not-an-arn')?.attributes).toEqual({ provider: 'aws', service: null, pattern: false });
  });

  it('names the account boundary by its (first) alias, else by the account id', () => {
    expect(pageOf((page) => mapBoundary(ACCOUNT, ['zeta', 'alpha'], page)).entities[0]).toMatchObject({ display_name: 'alpha', attributes: { alias: 'alpha' } });
    expect(pageOf((page) => mapBoundary(ACCOUNT, [], page)).entities[0]).toMatchObject({ display_name: ACCOUNT, attributes: { alias: null } });
  });
});

describe('the page builder', () => {
  it('keeps one of each entity and relationship, in the order first seen, with the track when given', () => {
    const page = new PageBuilder();
    const a = page.entity({ kind: 'Account', source_id: 'a', display_name: 'first', attributes: {} });
    page.entity({ kind: 'Account', source_id: 'a', display_name: 'second', attributes: {} });
    const b = page.entity({ kind: 'Entitlement', source_id: 'b', display_name: 'b', attributes: {} });
    page.relate('account_assigned_entitlement', a, b);
    page.relate('account_assigned_entitlement', a, b, 'users');
    page.relate('account_assigned_entitlement', b, a, 'users');
    expect(page.size).toEqual({ entities: 2, relationships: 2 });
    const out = page.page({ marker: 'm' }, 'p');
    expect(out).toMatchObject({ kind: 'page', next: { marker: 'm' } });
    if (out.kind !== 'page') throw new Error('not a page');
    expect(out.entities.map((e) => e.display_name)).toEqual(['first', 'b']);
    expect(out.relationships).toEqual([
      { kind: 'account_assigned_entitlement', from: { kind: 'Account', source_id: 'a' }, to: { kind: 'Entitlement', source_id: 'b' } },
      { kind: 'account_assigned_entitlement', from: { kind: 'Entitlement', source_id: 'b' }, to: { kind: 'Account', source_id: 'a' }, track: 'users' },
    ]);
  });

  it('fails the read when the next cursor outgrows its budget', () => {
    const out = new PageBuilder().page({ marker: 'x'.repeat(MAX_CURSOR_BYTES) }, 'cloud_provider_a');
    expect(out.kind).toBe('failed');
    expect(JSON.stringify(out)).toContain('the next cursor outgrew its budget');
  });

  it('turns anything a read throws into a failed read naming only its class', async () => {
    const thrown = await readNeverThrows('p', () => Promise.reject(new TypeError('secret detail')));
    expect(thrown.kind).toBe('failed');
    expect(JSON.stringify(thrown)).toContain('discovery stopped on TypeError');
    expect(JSON.stringify(thrown)).not.toContain('secret detail');
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what a careless library may do
    expect(JSON.stringify(await readNeverThrows('p', () => Promise.reject('a string')))).toContain('discovery stopped on string');
  });

  it('reads Retry-After in seconds or as an HTTP date, never earlier than now, else the fallback', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAtFrom(' 7 ', now, 1000)).toBe(now + 7000);
    expect(retryAtFrom('Thu, 01 Jan 2026 00:00:30 GMT', now, 1000)).toBe(now + 30_000);
    expect(retryAtFrom('Wed, 31 Dec 2025 23:00:00 GMT', now, 1000)).toBe(now);
    expect(retryAtFrom('soon', now, 1000)).toBe(now + 1000);
    expect(retryAtFrom(undefined, now, 1000)).toBe(now + 1000);
    expect(retryAtFrom(null, now, 2500)).toBe(now + 2500);
  });
});
