/**
 * The IAM contents of the fake AWS's accounts (users, groups, roles, managed policies, alias)
 * and how IAM's Query API writes them: GetAccountAuthorizationDetails's `UserDetailList`,
 * `GroupDetailList`, `RoleDetailList` and `Policies` members, with every policy document
 * URL-encoded (RFC 3986) as IAM sends them, and ListAccountAliases.
 *
 * `sampleDirectory()` is what the discovery tests read: two accounts that share an AWS managed
 * policy and a person (one email tag in both), a group with a path (so its ARN cannot be made
 * from the name a user's GroupList gives), inline policies on users, groups and roles, a
 * customer managed policy with an older non-default version, an AWS managed policy attached
 * to nothing (IAM leaves those out of the answer), and a user and a role with a permissions
 * boundary (written as IAM documents `UserDetail`/`RoleDetail`: a `PermissionsBoundary` of
 * `PermissionsBoundaryType` `PermissionsBoundaryPolicy` and `PermissionsBoundaryArn`, and counted
 * in the policy's `PermissionsBoundaryUsageCount`).
 */

export type PolicyDocument = { Version: '2012-10-17'; Statement: Record<string, unknown>[] };

export interface FakeIamUser {
  name: string;
  path?: string;
  id: string;
  groups?: string[];
  managed?: string[];
  inline?: Record<string, PolicyDocument>;
  tags?: Record<string, string>;
  /** The ARN of the managed policy set as its permissions boundary. */
  boundary?: string;
}

export interface FakeIamGroup {
  name: string;
  path?: string;
  id: string;
  managed?: string[];
  inline?: Record<string, PolicyDocument>;
}

export interface FakeIamRole {
  name: string;
  path?: string;
  id: string;
  trust: PolicyDocument;
  managed?: string[];
  inline?: Record<string, PolicyDocument>;
  /** The ARN of the managed policy set as its permissions boundary. */
  boundary?: string;
}

export interface FakeManagedPolicy {
  arn: string;
  name: string;
  path?: string;
  id: string;
  /** Versions oldest first; the last one is the default. */
  versions: PolicyDocument[];
}

export interface FakeIamAccount {
  alias?: string;
  users: FakeIamUser[];
  groups: FakeIamGroup[];
  roles: FakeIamRole[];
  policies: FakeManagedPolicy[];
}

export const CREATED = '2024-01-02T03:04:05Z';

export const allow = (action: string | string[], resource: string | string[]): PolicyDocument => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: action, Resource: resource }],
});

const trust = (principal: Record<string, string | string[]>): PolicyDocument => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: principal, Action: 'sts:AssumeRole' }],
});

export const ADMINISTRATOR_ACCESS = 'arn:aws:iam::aws:policy/AdministratorAccess';
export const SECURITY_AUDIT = 'arn:aws:iam::aws:policy/SecurityAudit';
export const READ_ONLY_ACCESS = 'arn:aws:iam::aws:policy/ReadOnlyAccess';

const awsManaged = (name: string, id: string, document: PolicyDocument): FakeManagedPolicy => ({ arn: `arn:aws:iam::aws:policy/${name}`, name, id, versions: [document] });

/** AWS managed policies exist in every account; IAM lists the ones attached to something. */
export function awsManagedPolicies(): FakeManagedPolicy[] {
  return [
    awsManaged('AdministratorAccess', 'ANPAIWMBCKSKIEE64ZLYK', allow('*', '*')),
    awsManaged('SecurityAudit', 'ANPAIX2T3QCXHR2OGGCTO', allow(['iam:Get*', 'iam:List*', 'cloudtrail:DescribeTrails'], '*')),
    awsManaged('ReadOnlyAccess', 'ANPAILL3HVNFSB6DCOWYQ', allow(['*:Describe*', '*:Get*', '*:List*'], '*')),
  ];
}

export function sampleDirectory(primary: string, secondary: string, discoveryUserName: string): Record<string, FakeIamAccount> {
  const devS3 = `arn:aws:iam::${primary}:policy/engineering/DevS3`;
  return {
    [primary]: {
      alias: 'tessera-prod',
      groups: [
        { name: 'Admins', id: 'AGPAADMINS0000000001', managed: [ADMINISTRATOR_ACCESS] },
        {
          name: 'Developers',
          path: '/engineering/',
          id: 'AGPADEVELOPERS000001',
          managed: [devS3],
          inline: { ReadLogs: allow('logs:GetLogEvents', `arn:aws:logs:eu-west-1:${primary}:log-group:/app/*`) },
        },
        { name: 'Auditors', id: 'AGPAAUDITORS00000001', managed: [SECURITY_AUDIT] },
      ],
      users: [
        { name: 'alice', id: 'AIDAALICE00000000001', groups: ['Admins', 'Developers'], tags: { Email: 'Alice@Example.com', team: 'platform' } },
        {
          name: 'bob',
          id: 'AIDABOB0000000000001',
          groups: ['Developers'],
          inline: { BobBucket: allow(['s3:GetObject', 's3:PutObject'], 'arn:aws:s3:::bob-bucket/*') },
        },
        { name: 'ci-deployer', path: '/service/', id: 'AIDACIDEPLOYER000001', managed: [devS3], boundary: devS3 },
        { name: 'carol', id: 'AIDACAROL00000000001', groups: ['Auditors'], tags: { email: 'carol@example.com' } },
        { name: discoveryUserName, id: 'AIDATESSERA000000001', managed: [SECURITY_AUDIT] },
      ],
      roles: [
        { name: 'TesseraDiscovery', path: '/discovery/', id: 'AROATESSERA000000001', trust: trust({ AWS: `arn:aws:iam::${primary}:user/${discoveryUserName}` }), managed: [SECURITY_AUDIT] },
        {
          name: 'AppRole',
          id: 'AROAAPPROLE000000001',
          boundary: SECURITY_AUDIT,
          trust: trust({ Service: 'ec2.amazonaws.com' }),
          inline: {
            AppData: {
              Version: '2012-10-17',
              Statement: [
                { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Query'], Resource: [`arn:aws:dynamodb:eu-west-1:${primary}:table/orders`, '*'] },
                { Effect: 'Deny', Action: 's3:*', Resource: 'arn:aws:s3:::secret-bucket' },
              ],
            },
          },
        },
      ],
      policies: [
        {
          arn: devS3,
          name: 'DevS3',
          path: '/engineering/',
          id: 'ANPADEVS300000000001',
          versions: [allow('s3:*', 'arn:aws:s3:::old-dev-bucket'), allow('s3:*', ['arn:aws:s3:::dev-bucket', 'arn:aws:s3:::dev-bucket/*'])],
        },
        ...awsManagedPolicies(),
      ],
    },
    [secondary]: {
      groups: [{ name: 'Ops', id: 'AGPAOPS0000000000001', managed: [ADMINISTRATOR_ACCESS] }],
      users: [{ name: 'alice.ops', id: 'AIDAALICEOPS00000001', groups: ['Ops'], tags: { email: 'alice@example.com' } }],
      roles: [{ name: 'TesseraDiscovery', path: '/discovery/', id: 'AROATESSERA000000002', trust: trust({ AWS: `arn:aws:iam::${primary}:user/${discoveryUserName}` }), managed: [SECURITY_AUDIT] }],
      policies: awsManagedPolicies(),
    },
  };
}

export type DetailsItem =
  | { type: 'User'; user: FakeIamUser }
  | { type: 'Group'; group: FakeIamGroup }
  | { type: 'Role'; role: FakeIamRole }
  | { type: 'LocalManagedPolicy' | 'AWSManagedPolicy'; policy: FakeManagedPolicy };

/** IAM's order: users, groups, roles, then managed policies (AWS managed ones only when attached). */
export function detailsItems(directory: FakeIamAccount, filter: readonly string[]): DetailsItem[] {
  const wanted = (type: string) => filter.length === 0 || filter.includes(type);
  const attached = attachedPolicyArns(directory);
  return [
    ...(wanted('User') ? directory.users.map((user) => ({ type: 'User' as const, user })) : []),
    ...(wanted('Group') ? directory.groups.map((group) => ({ type: 'Group' as const, group })) : []),
    ...(wanted('Role') ? directory.roles.map((role) => ({ type: 'Role' as const, role })) : []),
    ...directory.policies.flatMap((policy): DetailsItem[] => {
      const type = policy.arn.includes(':iam::aws:policy/') ? 'AWSManagedPolicy' : 'LocalManagedPolicy';
      if (!wanted(type) || (type === 'AWSManagedPolicy' && !attached.has(policy.arn))) return [];
      return [{ type, policy }];
    }),
  ];
}

export function attachedPolicyArns(directory: FakeIamAccount): Set<string> {
  return new Set([...directory.users, ...directory.groups, ...directory.roles].flatMap((entity) => entity.managed ?? []));
}

/** The members of a GetAccountAuthorizationDetailsResult for one page of items. */
export function detailsXml(account: string, items: readonly DetailsItem[], directory: FakeIamAccount): string {
  const users = items.flatMap((i) => (i.type === 'User' ? [userXml(account, i.user, directory)] : []));
  const groups = items.flatMap((i) => (i.type === 'Group' ? [groupXml(account, i.group, directory)] : []));
  const roles = items.flatMap((i) => (i.type === 'Role' ? [roleXml(account, i.role, directory)] : []));
  const policies = items.flatMap((i) => (i.type === 'LocalManagedPolicy' || i.type === 'AWSManagedPolicy' ? [policyXml(i.policy, directory)] : []));
  return (
    `<UserDetailList>${users.join('')}</UserDetailList><GroupDetailList>${groups.join('')}</GroupDetailList>` +
    `<RoleDetailList>${roles.join('')}</RoleDetailList><Policies>${policies.join('')}</Policies>`
  );
}

export const userArn = (account: string, user: FakeIamUser) => `arn:aws:iam::${account}:user${user.path ?? '/'}${user.name}`;
export const groupArn = (account: string, group: FakeIamGroup) => `arn:aws:iam::${account}:group${group.path ?? '/'}${group.name}`;
export const roleArn = (account: string, role: FakeIamRole) => `arn:aws:iam::${account}:role${role.path ?? '/'}${role.name}`;

function userXml(account: string, user: FakeIamUser, directory: FakeIamAccount): string {
  return (
    `<member><Path>${user.path ?? '/'}</Path><UserName>${x(user.name)}</UserName><UserId>${user.id}</UserId><Arn>${x(userArn(account, user))}</Arn>` +
    `<CreateDate>${CREATED}</CreateDate><UserPolicyList>${inlineXml(user.inline)}</UserPolicyList>` +
    `<GroupList>${(user.groups ?? []).map((g) => `<member>${x(g)}</member>`).join('')}</GroupList>` +
    `<AttachedManagedPolicies>${attachedXml(user.managed, directory)}</AttachedManagedPolicies>${boundaryXml(user.boundary)}` +
    `<Tags>${Object.entries(user.tags ?? {}).map(([k, v]) => `<member><Key>${x(k)}</Key><Value>${x(v)}</Value></member>`).join('')}</Tags></member>`
  );
}

function groupXml(account: string, group: FakeIamGroup, directory: FakeIamAccount): string {
  return (
    `<member><Path>${group.path ?? '/'}</Path><GroupName>${x(group.name)}</GroupName><GroupId>${group.id}</GroupId><Arn>${x(groupArn(account, group))}</Arn>` +
    `<CreateDate>${CREATED}</CreateDate><GroupPolicyList>${inlineXml(group.inline)}</GroupPolicyList>` +
    `<AttachedManagedPolicies>${attachedXml(group.managed, directory)}</AttachedManagedPolicies></member>`
  );
}

function roleXml(account: string, role: FakeIamRole, directory: FakeIamAccount): string {
  return (
    `<member><Path>${role.path ?? '/'}</Path><RoleName>${x(role.name)}</RoleName><RoleId>${role.id}</RoleId><Arn>${x(roleArn(account, role))}</Arn>` +
    `<CreateDate>${CREATED}</CreateDate><AssumeRolePolicyDocument>${encodeDocument(role.trust)}</AssumeRolePolicyDocument>` +
    `<InstanceProfileList/><RolePolicyList>${inlineXml(role.inline)}</RolePolicyList>` +
    `<AttachedManagedPolicies>${attachedXml(role.managed, directory)}</AttachedManagedPolicies>${boundaryXml(role.boundary)}<Tags/>` +
    // Changes with every use of the role: discovery must not let it change the role's digest.
    `<RoleLastUsed><LastUsedDate>${new Date().toISOString()}</LastUsedDate><Region>eu-west-1</Region></RoleLastUsed></member>`
  );
}

function policyXml(policy: FakeManagedPolicy, directory: FakeIamAccount): string {
  const attachments = [...directory.users, ...directory.groups, ...directory.roles].filter((e) => (e.managed ?? []).includes(policy.arn)).length;
  const boundaryUses = [...directory.users, ...directory.roles].filter((e) => e.boundary === policy.arn).length;
  const defaultVersion = `v${policy.versions.length}`;
  const versions = policy.versions
    .map((document, i) => `<member><Document>${encodeDocument(document)}</Document><VersionId>v${i + 1}</VersionId><IsDefaultVersion>${i === policy.versions.length - 1}</IsDefaultVersion><CreateDate>${CREATED}</CreateDate></member>`)
    .reverse()
    .join('');
  return (
    `<member><PolicyName>${x(policy.name)}</PolicyName><DefaultVersionId>${defaultVersion}</DefaultVersionId><PolicyId>${policy.id}</PolicyId>` +
    `<Path>${policy.path ?? '/'}</Path><PolicyVersionList>${versions}</PolicyVersionList><Arn>${x(policy.arn)}</Arn>` +
    `<AttachmentCount>${attachments}</AttachmentCount><PermissionsBoundaryUsageCount>${boundaryUses}</PermissionsBoundaryUsageCount><IsAttachable>true</IsAttachable>` +
    `<CreateDate>${CREATED}</CreateDate><UpdateDate>${CREATED}</UpdateDate></member>`
  );
}

function boundaryXml(arn: string | undefined): string {
  return arn ? `<PermissionsBoundary><PermissionsBoundaryType>PermissionsBoundaryPolicy</PermissionsBoundaryType><PermissionsBoundaryArn>${x(arn)}</PermissionsBoundaryArn></PermissionsBoundary>` : '';
}

function inlineXml(inline: Record<string, PolicyDocument> | undefined): string {
  return Object.entries(inline ?? {})
    .map(([name, document]) => `<member><PolicyName>${x(name)}</PolicyName><PolicyDocument>${encodeDocument(document)}</PolicyDocument></member>`)
    .join('');
}

function attachedXml(arns: string[] | undefined, directory: FakeIamAccount): string {
  return (arns ?? [])
    .map((arn) => `<member><PolicyName>${x(directory.policies.find((p) => p.arn === arn)?.name ?? arn.split('/').at(-1) ?? '')}</PolicyName><PolicyArn>${x(arn)}</PolicyArn></member>`)
    .join('');
}

/** As IAM sends documents: URL-encoded JSON (RFC 3986), then XML-escaped like any text. */
function encodeDocument(document: PolicyDocument): string {
  return x(encodeURIComponent(JSON.stringify(document)));
}

export const x = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
