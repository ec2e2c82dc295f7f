/**
 * The `graph` track of cloud provider B: the Microsoft Entra ID directory through Microsoft Graph
 * v1.0, one Graph page per `readPage`, in phases:
 *
 *   users → servicePrincipals → groups ⇄ members → roleDefinitions → roleAssignments → (refusal)
 *
 * Every listing `$select`s the fields mapped and follows `@odata.nextLink` exactly as given
 * (only to the Graph endpoint in use). Groups are read 50 to a page; their ids wait in the
 * cursor while each group's `transitiveMembers` are read page by page, then the next groups
 * page. The cursor holds the phase, the next link, those pending ids and the refused
 * permissions: never a listing.
 *
 * Mapping:
 * - users → Account (source_id = object id) and a Principal per person: the lower-cased `mail`,
 *   else the lower-cased `userPrincipalName` (two accounts of one person, say a member and an
 *   admin account with the same mail, meet in one Principal); principal_represents_account.
 * - service principals (applications, managed identities) → Account (object id); no Principal.
 * - groups → Entitlement (object id); account_assigned_entitlement from every user and service
 *   principal among its transitive members (nested groups are followed, not emitted as members).
 * - directory role definitions → Entitlement (role definition id); a role assigned to a user or
 *   service principal → account_assigned_entitlement; a role assigned to a group (role-assignable
 *   groups) → account_assigned_entitlement from each transitive member of that group, since a
 *   group is an Entitlement, not an Account. A role scoped to an administrative unit is its own
 *   Entitlement, `<role definition id>@<directory scope id>`.
 *
 * A 403 (a missing application permission) skips the phases that need it; the track ends
 * `refused` with the exact permission to grant once the rest is read.
 */
import * as z from 'zod/mini';
import { azureGraphPermissions } from './permissions';
import { missingGraphPermission, type GraphPermission } from './remediation';
import { collection, nextLinkOf, type AzureDiscoveryHttp } from './discovery-http';
import type { AzureConfiguration } from './integration';
import type { EntityRef, PageOutcome, TrackCursor } from '../discovery';
import { PageBuilder, failed, refused, sortedSet } from '../discovery-page';
import { unexpectedAnswer } from '../outcome';
import { stringField } from '../provider-http';

const PROVIDER = 'Microsoft Graph';
const BUCKET = 'azure:graph';
/** Groups per page: their ids ride in the cursor while their members are read. */
export const GROUP_PAGE_SIZE = 50;
/** Graph's largest page for these listings. */
const TOP = 999;
/** Bounds the member pages of one role-holding group read within a role assignments page. */
const MAX_ROLE_GROUP_PAGES = 50;

const PHASES = ['users', 'servicePrincipals', 'groups', 'members', 'roleDefinitions', 'roleAssignments', 'refusal'] as const;
type Phase = (typeof PHASES)[number];

const CursorSchema = z.strictObject({
  phase: z.enum(PHASES),
  /** The next page of the current listing; null for its first page. */
  link: z.nullable(z.url().check(z.maxLength(4096))),
  /** Groups of the current groups page whose members are still to read; the first is being read. */
  pending: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(GROUP_PAGE_SIZE)),
  /** The groups page after the pending ones. */
  groupsLink: z.nullable(z.url().check(z.maxLength(4096))),
  /** Permissions refused so far, by name: only those of the list are ever written. */
  refused: z.array(z.string().check(z.maxLength(64), z.refine((name) => azureGraphPermissions.some((p) => p.permission === name)))).check(z.maxLength(8)),
})
  // The members phase is only ever written with the group being read first in `pending`.
  .check(z.refine((cursor) => cursor.phase !== 'members' || cursor.pending.length > 0));
type Cursor = z.infer<typeof CursorSchema>;

const START: Cursor = { phase: 'users', link: null, pending: [], groupsLink: null, refused: [] };

/** The permission each phase needs, and where the track goes when it is refused. */
const NEEDS: Record<Exclude<Phase, 'refusal'>, { permission: string; skipTo: Phase }> = {
  users: { permission: 'User.Read.All', skipTo: 'servicePrincipals' },
  servicePrincipals: { permission: 'Application.Read.All', skipTo: 'groups' },
  groups: { permission: 'GroupMember.Read.All', skipTo: 'roleDefinitions' },
  members: { permission: 'GroupMember.Read.All', skipTo: 'roleDefinitions' },
  roleDefinitions: { permission: 'RoleManagement.Read.Directory', skipTo: 'refusal' },
  roleAssignments: { permission: 'RoleManagement.Read.Directory', skipTo: 'refusal' },
};

export function parseGraphCursor(saved: TrackCursor | null): Cursor | undefined {
  if (saved === null) return START;
  const parsed = CursorSchema.safeParse(saved);
  return parsed.success ? parsed.data : undefined;
}

export async function readGraphPage(http: AzureDiscoveryHttp, configuration: AzureConfiguration, cursor: Cursor): Promise<PageOutcome> {
  if (cursor.phase === 'refusal') {
    return refused(cursor.refused.map((name) => missingGraphPermission(permissionNamed(name), configuration.client_id, configuration.tenant_id)));
  }
  const token = await http.token('graph');
  if (!token.ok) return token.outcome;
  const read = new GraphRead(http, token.accessToken);
  const page = new PageBuilder();

  const url = cursor.link ?? read.firstUrl(cursor);
  const answer = await read.get(url);
  if (answer.kind === 'outcome') return answer.outcome;
  if (answer.kind === 'status') {
    if (answer.status === 403) return page.page(skip(cursor, NEEDS[cursor.phase]), PROVIDER);
    // A group deleted since its page was read has no members left to read.
    if (answer.status === 404 && cursor.phase === 'members') return page.page(afterGroup(cursor), PROVIDER);
    return failed([unexpectedAnswer(PROVIDER, `HTTP ${answer.status}${answer.code ? ` ${answer.code}` : ''}`)]);
  }

  const items = collection(answer.body);
  const next = nextLinkOf(answer.body, '@odata.nextLink');
  switch (cursor.phase) {
    case 'users':
      for (const user of items) mapUser(user, page);
      return page.page(next ? { ...cursor, link: next } : moveTo(cursor, 'servicePrincipals'), PROVIDER);
    case 'servicePrincipals':
      for (const sp of items) mapServicePrincipal(sp, page);
      return page.page(next ? { ...cursor, link: next } : moveTo(cursor, 'groups'), PROVIDER);
    case 'groups': {
      for (const group of items) mapGroup(group, page);
      const pending = items.flatMap((g) => (typeof g.id === 'string' ? [g.id] : []));
      if (pending.length > 0) return page.page({ ...cursor, phase: 'members', link: null, pending, groupsLink: next }, PROVIDER);
      return page.page(next ? { ...cursor, link: next } : moveTo(cursor, 'roleDefinitions'), PROVIDER);
    }
    case 'members': {
      const group = { kind: 'Entitlement' as const, source_id: cursor.pending[0]! };
      for (const member of memberAccounts(items)) page.relate('account_assigned_entitlement', member, group);
      return page.page(next ? { ...cursor, link: next } : afterGroup(cursor), PROVIDER);
    }
    case 'roleDefinitions':
      for (const role of items) mapRoleDefinition(role, page);
      return page.page(next ? { ...cursor, link: next } : moveTo(cursor, 'roleAssignments'), PROVIDER);
    case 'roleAssignments': {
      const mapped = await mapRoleAssignments(read, items, page);
      if (mapped.kind === 'outcome') return mapped.outcome;
      const refusedSoFar = sortedSet([...cursor.refused, ...mapped.refused]);
      return page.page(next ? { ...cursor, link: next, refused: refusedSoFar } : end({ ...cursor, refused: refusedSoFar }), PROVIDER);
    }
  }
}

class GraphRead {
  constructor(
    private readonly http: AzureDiscoveryHttp,
    private readonly accessToken: string,
  ) {}

  firstUrl(cursor: Cursor): string {
    const base = `${this.http.endpoints.graph}/v1.0`;
    switch (cursor.phase) {
      case 'users':
        return `${base}/users?$select=id,displayName,userPrincipalName,mail,accountEnabled,userType&$top=${TOP}`;
      case 'servicePrincipals':
        return `${base}/servicePrincipals?$select=id,appId,displayName,servicePrincipalType,accountEnabled,appOwnerOrganizationId&$top=${TOP}`;
      case 'groups':
        return `${base}/groups?$select=id,displayName,securityEnabled,mailEnabled,groupTypes,isAssignableToRole&$top=${GROUP_PAGE_SIZE}`;
      case 'members':
        return this.membersUrl(cursor.pending[0]!);
      case 'roleDefinitions':
        return `${base}/roleManagement/directory/roleDefinitions?$select=id,displayName,isBuiltIn,isEnabled,templateId`;
      case 'roleAssignments':
      case 'refusal':
        return `${base}/roleManagement/directory/roleAssignments?$select=id,principalId,roleDefinitionId,directoryScopeId&$expand=principal`;
    }
  }

  membersUrl(groupId: string): string {
    return `${this.http.endpoints.graph}/v1.0/groups/${encodeURIComponent(groupId)}/transitiveMembers?$select=id&$top=${TOP}`;
  }

  async get(url: string): Promise<{ kind: 'ok'; body: unknown } | { kind: 'status'; status: number; code: string | undefined } | { kind: 'outcome'; outcome: PageOutcome }> {
    const answer = await this.http.get('graph', url, this.accessToken, BUCKET);
    if (answer.kind === 'ok') return answer;
    if (answer.kind === 'refused') return { kind: 'status', status: answer.status, code: answer.code };
    if (answer.kind === 'throttled') return { kind: 'outcome', outcome: { kind: 'throttled', retryAtMs: answer.retryAtMs } };
    return { kind: 'outcome', outcome: failed([answer.item]) };
  }
}

/**
 * Role assignments of one page. A group holding a role passes it to its transitive members,
 * read here in full (role-assignable groups are small, and the page is read again whole if a
 * member page is throttled). Answers the outcome that ends the read, or the permissions refused
 * on the way (to report at the end of the track).
 */
async function mapRoleAssignments(
  read: GraphRead,
  assignments: Record<string, unknown>[],
  page: PageBuilder,
): Promise<{ kind: 'outcome'; outcome: PageOutcome } | { kind: 'mapped'; refused: string[] }> {
  const refusedPermissions: string[] = [];
  for (const assignment of assignments) {
    const principalId = stringField(assignment, 'principalId');
    const roleId = stringField(assignment, 'roleDefinitionId');
    if (!principalId || !roleId) continue;
    const scope = stringField(assignment, 'directoryScopeId') ?? '/';
    const role = scope === '/' ? { kind: 'Entitlement' as const, source_id: roleId } : scopedRole(roleId, scope, page);
    const type = stringField(assignment, 'principal', '@odata.type');

    if (type === '#microsoft.graph.user' || type === '#microsoft.graph.servicePrincipal') {
      page.relate('account_assigned_entitlement', { kind: 'Account', source_id: principalId }, role);
    } else if (type === '#microsoft.graph.group') {
      let url: string | null = read.membersUrl(principalId);
      for (let n = 0; url && n < MAX_ROLE_GROUP_PAGES; n += 1) {
        const answer = await read.get(url);
        if (answer.kind === 'outcome') return answer;
        if (answer.kind === 'status') {
          if (answer.status === 403) refusedPermissions.push('GroupMember.Read.All');
          break;
        }
        for (const member of memberAccounts(collection(answer.body))) page.relate('account_assigned_entitlement', member, role);
        url = nextLinkOf(answer.body, '@odata.nextLink');
      }
    }
    // No principal (deleted since) or another kind of object: nothing holds the role.
  }
  return { kind: 'mapped', refused: refusedPermissions };
}

function mapUser(user: Record<string, unknown>, page: PageBuilder): void {
  const id = stringField(user, 'id');
  if (!id) return;
  const upn = stringField(user, 'userPrincipalName') ?? null;
  const mail = stringField(user, 'mail') ?? null;
  const account = page.entity({
    kind: 'Account',
    source_id: id,
    display_name: stringField(user, 'displayName') ?? upn ?? id,
    attributes: {
      type: 'user',
      user_principal_name: upn,
      mail,
      account_enabled: booleanField(user, 'accountEnabled'),
      user_type: stringField(user, 'userType') ?? null,
    },
  });
  const person = (mail ?? upn)?.toLowerCase();
  if (!person) return;
  const principal = page.entity({ kind: 'Principal', source_id: person, display_name: person, attributes: { email: person } });
  page.relate('principal_represents_account', principal, account);
}

function mapServicePrincipal(sp: Record<string, unknown>, page: PageBuilder): void {
  const id = stringField(sp, 'id');
  if (!id) return;
  page.entity({
    kind: 'Account',
    source_id: id,
    display_name: stringField(sp, 'displayName') ?? id,
    attributes: {
      type: 'service_principal',
      app_id: stringField(sp, 'appId') ?? null,
      service_principal_type: stringField(sp, 'servicePrincipalType') ?? null,
      account_enabled: booleanField(sp, 'accountEnabled'),
      app_owner_organization_id: stringField(sp, 'appOwnerOrganizationId') ?? null,
    },
  });
}

function mapGroup(group: Record<string, unknown>, page: PageBuilder): void {
  const id = stringField(group, 'id');
  if (!id) return;
  const types = Array.isArray(group.groupTypes) ? group.groupTypes.filter((t): t is string => typeof t === 'string') : [];
  page.entity({
    kind: 'Entitlement',
    source_id: id,
    display_name: stringField(group, 'displayName') ?? id,
    attributes: {
      type: 'group',
      security_enabled: booleanField(group, 'securityEnabled'),
      mail_enabled: booleanField(group, 'mailEnabled'),
      group_types: sortedSet(types),
      role_assignable: booleanField(group, 'isAssignableToRole'),
    },
  });
}

function mapRoleDefinition(role: Record<string, unknown>, page: PageBuilder): void {
  const id = stringField(role, 'id');
  if (!id) return;
  page.entity({
    kind: 'Entitlement',
    source_id: id,
    display_name: stringField(role, 'displayName') ?? id,
    attributes: {
      type: 'directory_role',
      role_definition_id: id,
      directory_scope_id: '/',
      built_in: booleanField(role, 'isBuiltIn'),
      enabled: booleanField(role, 'isEnabled'),
      template_id: stringField(role, 'templateId') ?? null,
    },
  });
}

function scopedRole(roleId: string, scope: string, page: PageBuilder): EntityRef {
  return page.entity({
    kind: 'Entitlement',
    source_id: `${roleId}@${scope}`,
    display_name: `${roleId} @ ${scope}`,
    attributes: { type: 'directory_role', role_definition_id: roleId, directory_scope_id: scope },
  });
}

/** Users and service principals among directory objects; groups, devices and contacts are not Accounts. */
function memberAccounts(members: Record<string, unknown>[]): EntityRef[] {
  return members.flatMap((member): EntityRef[] => {
    const id = stringField(member, 'id');
    const type = stringField(member, '@odata.type');
    return id && (type === '#microsoft.graph.user' || type === '#microsoft.graph.servicePrincipal') ? [{ kind: 'Account', source_id: id }] : [];
  });
}

function moveTo(cursor: Cursor, phase: Phase): Cursor | null {
  if (phase === 'refusal') return end(cursor);
  return { ...cursor, phase, link: null, pending: [], groupsLink: null };
}

function afterGroup(cursor: Cursor): Cursor | null {
  const pending = cursor.pending.slice(1);
  if (pending.length > 0) return { ...cursor, link: null, pending };
  if (cursor.groupsLink) return { ...cursor, phase: 'groups', link: cursor.groupsLink, pending: [], groupsLink: null };
  return moveTo(cursor, 'roleDefinitions');
}

function skip(cursor: Cursor, need: { permission: string; skipTo: Phase }): Cursor | null {
  return moveTo({ ...cursor, refused: sortedSet([...cursor.refused, need.permission]) }, need.skipTo);
}

/** The track is read: done, or one more call that answers the refusals. */
function end(cursor: Cursor): Cursor | null {
  return cursor.refused.length === 0 ? null : { phase: 'refusal', link: null, pending: [], groupsLink: null, refused: cursor.refused };
}

/** A name the cursor holds: the cursor schema admits only the permissions of the list. */
function permissionNamed(name: string): GraphPermission {
  return azureGraphPermissions.find((p) => p.permission === name)!;
}

function booleanField(body: Record<string, unknown>, name: string): boolean | null {
  const value = body[name];
  return typeof value === 'boolean' ? value : null;
}
