/**
 * From IAM's GetAccountAuthorizationDetails (and ListAccountAliases) to observed entities and
 * relationships: pure functions of one page of the provider's answer, so the mapping is tested
 * without a network and a page always maps the same way.
 *
 * - Account: each IAM user and each IAM role (both are identities that act in the account),
 *   source_id = its ARN.
 * - Principal: who an IAM user stands for. The user's `email` tag (lower-cased) when it has one,
 *   so one person's users in several accounts meet in one Principal; otherwise the user's
 *   unique id (AIDA…), which IAM never reuses (an ARN is reused when a user is re-created).
 *   Roles get no Principal: who may assume them is in their trust policy (`trusted_principals`).
 * - Entitlement: each group (its ARN), each managed policy (its ARN; AWS managed policies have
 *   one ARN in every account) and each inline policy (`<owner ARN>#<policy name>`: inline
 *   policies have no ARN, and `#` cannot occur in IAM names).
 * - account_assigned_entitlement: user → its groups, user/role → its attached managed and
 *   inline policies, and user → the managed and inline policies of its groups (what the user
 *   holds through a group: a group's policies cannot be an Entitlement of an Entitlement here).
 * - Resource: each `Resource` other than `*` of an Allow statement (ARN or ARN pattern, as
 *   written), with entitlement_grants_resource from the policy that names it.
 * - CloudAccountBoundary: the account, source_id = its id, named by its alias when it has one.
 *
 * An object the listing names only by ARN (moto leaves out `PolicyName`) takes its name from the
 * ARN's last segment, so every relationship's ends are written.
 *
 * Values that change without the object changing (RoleLastUsed, AttachmentCount, timestamps of
 * the read) are left out: the engine compares a digest of the attributes to skip unchanged
 * objects, and an AWS managed policy is seen by every account's track alike.
 */
import type { AttachedPolicy, GroupDetail, ManagedPolicyDetail, PolicyDetail, RoleDetail, Tag, UserDetail } from '@aws-sdk/client-iam';
import type { AttributeValue, EntityRef } from '../discovery';
import { allowGrants, decodePolicyDocument, trustedPrincipals } from './policy-document';
import { sortedSet, type PageBuilder } from '../discovery-page';

/** What the users phase needs to know of a group it meets by name in a user's GroupList. */
export interface GroupSummary {
  arn: string;
  managedPolicyArns: string[];
  inlinePolicyIds: string[];
}

/** Group names are unique in an account whatever their case or path; GroupList gives names only. */
export type GroupIndex = ReadonlyMap<string, GroupSummary>;

export function groupIndexOf(listed: readonly GroupDetail[]): Map<string, GroupSummary> {
  const index = new Map<string, GroupSummary>();
  for (const group of namedGroups(listed)) {
    if (!group.Arn || !group.GroupName) continue;
    index.set(group.GroupName.toLowerCase(), {
      arn: group.Arn,
      managedPolicyArns: attachedArns(group.AttachedManagedPolicies),
      inlinePolicyIds: (group.GroupPolicyList ?? []).flatMap((p) => (p.PolicyName ? [inlinePolicyId(group.Arn ?? '', p.PolicyName)] : [])),
    });
  }
  return index;
}

export function mapGroups(account: string, listed: readonly GroupDetail[], page: PageBuilder): void {
  for (const group of namedGroups(listed)) {
    if (!group.Arn || !group.GroupName) continue;
    page.entity({
      kind: 'Entitlement',
      source_id: group.Arn,
      display_name: group.GroupName,
      attributes: {
        type: 'iam_group',
        account_id: account,
        name: group.GroupName,
        path: group.Path ?? '/',
        unique_id: group.GroupId ?? null,
        created_at: iso(group.CreateDate),
        managed_policy_arns: attachedArns(group.AttachedManagedPolicies),
        inline_policy_names: sortedSet((group.GroupPolicyList ?? []).flatMap((p) => (p.PolicyName ? [p.PolicyName] : []))),
      },
    });
    for (const policy of group.GroupPolicyList ?? []) mapInlinePolicy(account, group.Arn, group.GroupName, policy, page);
  }
}

export function mapUsers(account: string, users: readonly UserDetail[], groups: GroupIndex, page: PageBuilder): void {
  for (const user of users) {
    if (!user.Arn || !user.UserName) continue;
    const email = emailTag(user.Tags);
    const accountRef = page.entity({
      kind: 'Account',
      source_id: user.Arn,
      display_name: user.UserName,
      attributes: {
        type: 'iam_user',
        account_id: account,
        name: user.UserName,
        path: user.Path ?? '/',
        unique_id: user.UserId ?? null,
        created_at: iso(user.CreateDate),
        permissions_boundary_arn: user.PermissionsBoundary?.PermissionsBoundaryArn ?? null,
        email,
      },
    });

    const principalId = email ?? user.UserId ?? user.Arn;
    const principal = page.entity({
      kind: 'Principal',
      source_id: principalId,
      display_name: email ?? user.UserName,
      // Only what every account's users with this email agree on: the same Principal is seen
      // from several accounts, and must read the same from each.
      attributes: email ? { identified_by: 'email_tag', email } : { identified_by: 'iam_user_id', email: null },
    });
    page.relate('principal_represents_account', principal, accountRef);

    for (const policy of user.UserPolicyList ?? []) page.relate('account_assigned_entitlement', accountRef, mapInlinePolicy(account, user.Arn, user.UserName, policy, page));
    for (const arn of attachedArns(user.AttachedManagedPolicies)) page.relate('account_assigned_entitlement', accountRef, managedPolicyRef(arn));

    for (const name of user.GroupList ?? []) {
      // A group deleted between the two reads is not in the index: its membership is gone too.
      const group = groups.get(name.toLowerCase());
      if (!group) continue;
      page.relate('account_assigned_entitlement', accountRef, { kind: 'Entitlement', source_id: group.arn });
      for (const arn of group.managedPolicyArns) page.relate('account_assigned_entitlement', accountRef, managedPolicyRef(arn));
      for (const id of group.inlinePolicyIds) page.relate('account_assigned_entitlement', accountRef, { kind: 'Entitlement', source_id: id });
    }
  }
}

export function mapRoles(account: string, roles: readonly RoleDetail[], page: PageBuilder): void {
  for (const role of roles) {
    if (!role.Arn || !role.RoleName) continue;
    const path = role.Path ?? '/';
    const accountRef = page.entity({
      kind: 'Account',
      source_id: role.Arn,
      display_name: role.RoleName,
      attributes: {
        type: 'iam_role',
        account_id: account,
        name: role.RoleName,
        path,
        unique_id: role.RoleId ?? null,
        created_at: iso(role.CreateDate),
        service_linked: path.startsWith('/aws-service-role/'),
        trusted_principals: trustedPrincipals(decodePolicyDocument(role.AssumeRolePolicyDocument)),
        permissions_boundary_arn: role.PermissionsBoundary?.PermissionsBoundaryArn ?? null,
      },
    });
    for (const policy of role.RolePolicyList ?? []) page.relate('account_assigned_entitlement', accountRef, mapInlinePolicy(account, role.Arn, role.RoleName, policy, page));
    for (const arn of attachedArns(role.AttachedManagedPolicies)) page.relate('account_assigned_entitlement', accountRef, managedPolicyRef(arn));
  }
}

export function mapManagedPolicies(policies: readonly ManagedPolicyDetail[], page: PageBuilder): void {
  for (const listed of policies) {
    if (!listed.Arn) continue;
    // The name is the ARN's last segment: a listing without `PolicyName` (moto's) must still
    // write the policy that users, groups and roles were related to by its ARN.
    const policy = { ...listed, PolicyName: listed.PolicyName ?? nameInArn(listed.Arn) };
    if (!policy.Arn || !policy.PolicyName) continue;
    const version = (policy.PolicyVersionList ?? []).find((v) => v.IsDefaultVersion === true || v.VersionId === policy.DefaultVersionId);
    const grants = allowGrants(decodePolicyDocument(version?.Document));
    const awsManaged = /^arn:aws[a-z-]*:iam::aws:policy\//.test(policy.Arn);
    const entitlement = page.entity({
      kind: 'Entitlement',
      source_id: policy.Arn,
      display_name: policy.PolicyName,
      attributes: {
        type: 'managed_policy',
        aws_managed: awsManaged,
        name: policy.PolicyName,
        path: policy.Path ?? '/',
        unique_id: policy.PolicyId ?? null,
        default_version_id: policy.DefaultVersionId ?? null,
        ...grantAttributes(grants),
      },
    });
    for (const resource of grants.resources) page.relate('entitlement_grants_resource', entitlement, resourceEntity(resource, page));
  }
}

export function mapBoundary(account: string, aliases: readonly string[], page: PageBuilder): void {
  // AWS allows at most one alias per account; sorted in case that ever changes.
  const alias = [...aliases].sort()[0] ?? null;
  page.entity({
    kind: 'CloudAccountBoundary',
    source_id: account,
    display_name: alias ?? account,
    attributes: { provider: 'aws', account_id: account, alias },
  });
}

/** `arn:aws:iam::123456789012:policy/path/Name` → `Name`; undefined when the ARN has no resource path. */
export function nameInArn(arn: string): string | undefined {
  const resource = arn.split(':').slice(5).join(':');
  const name = resource.slice(resource.lastIndexOf('/') + 1);
  return resource.includes('/') && name ? name : undefined;
}

export function inlinePolicyId(ownerArn: string, policyName: string): string {
  return `${ownerArn}#${policyName}`;
}

function mapInlinePolicy(account: string, ownerArn: string, ownerName: string, policy: PolicyDetail, page: PageBuilder): EntityRef {
  const name = policy.PolicyName ?? '';
  const grants = allowGrants(decodePolicyDocument(policy.PolicyDocument));
  const entitlement = page.entity({
    kind: 'Entitlement',
    source_id: inlinePolicyId(ownerArn, name),
    display_name: `${ownerName}/${name}`,
    attributes: { type: 'inline_policy', account_id: account, name, owner_arn: ownerArn, ...grantAttributes(grants) },
  });
  for (const resource of grants.resources) page.relate('entitlement_grants_resource', entitlement, resourceEntity(resource, page));
  return entitlement;
}

function resourceEntity(resource: string, page: PageBuilder): EntityRef {
  const service = /^arn:[^:]+:([^:]+):/.exec(resource)?.[1] ?? null;
  return page.entity({
    kind: 'Resource',
    source_id: resource,
    display_name: resource,
    attributes: { provider: 'aws', service, pattern: /[*?]/.test(resource) },
  });
}

function grantAttributes(grants: ReturnType<typeof allowGrants>): Record<string, AttributeValue> {
  return { allowed_actions: grants.actions, allows_all_resources: grants.allResources, uses_not_action: grants.notAction };
}

/** Groups as listed, their name taken from the ARN where the listing left it out. */
function namedGroups(groups: readonly GroupDetail[]): GroupDetail[] {
  return groups.map((group) => (group.GroupName || !group.Arn ? group : { ...group, GroupName: nameInArn(group.Arn) }));
}

function managedPolicyRef(arn: string): EntityRef {
  return { kind: 'Entitlement', source_id: arn };
}

function attachedArns(attached: readonly AttachedPolicy[] | undefined): string[] {
  return sortedSet((attached ?? []).flatMap((p) => (p.PolicyArn ? [p.PolicyArn] : [])));
}

/** The `email` tag (key compared case-insensitively), lower-cased; only an address-shaped value counts. */
function emailTag(tags: readonly Tag[] | undefined): string | null {
  const value = tags?.find((t) => t.Key?.toLowerCase() === 'email')?.Value?.trim().toLowerCase();
  return value && /^[^@\s]+@[^@\s]+$/.test(value) ? value : null;
}

function iso(date: Date | undefined): string | null {
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}
