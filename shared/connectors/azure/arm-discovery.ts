/**
 * The `subscription:<id>` tracks of cloud provider B: Azure RBAC of one subscription through
 * Azure Resource Manager, `api-version` on every call, one ARM page per `readPage`:
 *
 *   subscription (GET /subscriptions/{id}) → roleAssignments (paged by `nextLink`) → done
 *
 * The role assignments of a subscription are those at, above (management groups, root) and
 * below it (resource groups, resources). The role definitions they name are read by id, once
 * per step (memoized in `context.session`), for their names and permissions.
 *
 * Mapping:
 * - the subscription → CloudAccountBoundary (source_id = subscription id, named by its display name);
 * - each scope an assignment is made at → Resource (source_id = the scope's ARM id, lower-cased:
 *   ARM ids are case-insensitive and do not always come back in the same case);
 * - a role definition at a scope → Entitlement (source_id = `<scope>/providers/microsoft.authorization/roledefinitions/<guid>`,
 *   lower-cased), with entitlement_grants_resource to the scope; principals assigned the same
 *   role at the same scope share it;
 * - a user or service principal assigned it → account_assigned_entitlement from its Account;
 * - a group assigned it → entitlement_grants_resource from the group's Entitlement to the scope
 *   (a group is not an Account; which role the group holds is in the scope's role Entitlements);
 * - principals and groups are the `graph` track's objects: they are emitted here too, from what
 *   the assignment says (object id and type), with `track: "graph"`, because the directory may no
 *   longer hold them (an assignment outlives a deleted principal).
 * Foreign groups and devices are not discovered.
 *
 * A subscription whose role assignments come back empty (200, no `nextLink`) is refused like a
 * 403: the app reads the subscription through an assignment that the listing would show.
 */
import * as z from 'zod/mini';
import { collection, nextLinkOf, type AzureDiscoveryHttp, type AzureRead } from './discovery-http';
import { missingReaderRole, unknownSubscription } from './remediation';
import type { AzureConfiguration } from './integration';
import type { AttributeValue, EntityRef, PageOutcome, TrackCursor } from '../discovery';
import { PageBuilder, failed, refused, sortedSet } from '../discovery-page';
import { GRAPH_TRACK } from './integration';
import { unexpectedAnswer } from '../outcome';
import { stringField } from '../provider-http';

const PROVIDER = 'Azure Resource Manager';
export const AUTHORIZATION_API_VERSION = '2022-04-01';
export const SUBSCRIPTIONS_API_VERSION = '2022-12-01';

const CursorSchema = z.strictObject({
  phase: z.enum(['subscription', 'roleAssignments']),
  link: z.nullable(z.url().check(z.maxLength(4096))),
});
type Cursor = z.infer<typeof CursorSchema>;

export function parseArmCursor(saved: TrackCursor | null): Cursor | undefined {
  if (saved === null) return { phase: 'subscription', link: null };
  const parsed = CursorSchema.safeParse(saved);
  return parsed.success ? parsed.data : undefined;
}

interface RoleDefinition {
  name: string | null;
  type: string | null;
  actions: string[];
  notActions: string[];
  dataActions: string[];
  notDataActions: string[];
}

export async function readArmPage(http: AzureDiscoveryHttp, configuration: AzureConfiguration, subscriptionId: string, cursor: Cursor, session: Map<string, unknown>): Promise<PageOutcome> {
  const token = await http.token('arm');
  if (!token.ok) return token.outcome;
  const bucket = `azure:arm:${subscriptionId}`;
  const read = (url: string) => http.get('arm', url, token.accessToken, bucket);
  const outcomeOf = (answer: Exclude<AzureRead, { kind: 'ok' }>): PageOutcome => {
    if (answer.kind === 'throttled') return { kind: 'throttled', retryAtMs: answer.retryAtMs };
    if (answer.kind === 'failed') return failed([answer.item]);
    // Reader missing refuses every read of the subscription alike; an unknown one is a scope mistake.
    if (answer.status === 403) return refused([missingReaderRole(subscriptionId, configuration.client_id)]);
    if (answer.status === 404 || answer.code === 'InvalidAuthenticationTokenTenant') return refused([unknownSubscription(subscriptionId, configuration.tenant_id)]);
    return failed([unexpectedAnswer(PROVIDER, `HTTP ${answer.status}${answer.code ? ` ${answer.code}` : ''}`)]);
  };

  const page = new PageBuilder();
  const arm = http.endpoints.arm;
  if (cursor.phase === 'subscription') {
    const answer = await read(`${arm}/subscriptions/${encodeURIComponent(subscriptionId)}?api-version=${SUBSCRIPTIONS_API_VERSION}`);
    if (answer.kind !== 'ok') return outcomeOf(answer);
    page.entity({
      kind: 'CloudAccountBoundary',
      source_id: subscriptionId,
      display_name: stringField(answer.body, 'displayName') ?? subscriptionId,
      attributes: { provider: 'azure', subscription_id: subscriptionId, tenant_id: stringField(answer.body, 'tenantId') ?? null, state: stringField(answer.body, 'state') ?? null },
    });
    return page.page({ phase: 'roleAssignments', link: null }, PROVIDER);
  }

  const url = cursor.link ?? `${arm}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.Authorization/roleAssignments?api-version=${AUTHORIZATION_API_VERSION}`;
  const answer = await read(url);
  if (answer.kind !== 'ok') return outcomeOf(answer);
  const listed = collection(answer.body);
  const next = nextLinkOf(answer.body, 'nextLink');
  if (cursor.link === null && listed.length === 0 && next === null) return refused([missingReaderRole(subscriptionId, configuration.client_id, 'empty')]);
  const assignments = listed.map((a) => ({
    scope: stringField(a, 'properties', 'scope'),
    roleDefinitionId: stringField(a, 'properties', 'roleDefinitionId'),
    principalId: stringField(a, 'properties', 'principalId'),
    principalType: stringField(a, 'properties', 'principalType'),
  }));

  const definitions = new Map<string, RoleDefinition | null>();
  for (const id of sortedSet(assignments.flatMap((a) => (a.roleDefinitionId ? [a.roleDefinitionId] : [])))) {
    const key = `azure:${configuration.client_id}:role-definition:${id.toLowerCase()}`;
    if (session.has(key)) {
      definitions.set(id, session.get(key) as RoleDefinition | null);
      continue;
    }
    const definition = await read(`${arm}${id}?api-version=${AUTHORIZATION_API_VERSION}`);
    // A custom role deleted after its assignment was made: the assignment still shows, unnamed.
    const deleted = definition.kind === 'refused' && definition.status === 404;
    if (definition.kind !== 'ok' && !deleted) return outcomeOf(definition);
    const known = definition.kind === 'ok' ? roleDefinitionOf(definition.body) : null;
    definitions.set(id, known);
    session.set(key, known);
  }

  for (const assignment of assignments) {
    if (!assignment.scope || !assignment.roleDefinitionId || !assignment.principalId) continue;
    const resource = scopeResource(assignment.scope, page);
    const role = roleAtScope(assignment.scope, assignment.roleDefinitionId, definitions.get(assignment.roleDefinitionId) ?? null, page);
    page.relate('entitlement_grants_resource', role, resource);

    if (assignment.principalType === 'User' || assignment.principalType === 'ServicePrincipal') {
      const account = page.entity({
        kind: 'Account',
        source_id: assignment.principalId,
        display_name: assignment.principalId,
        attributes: { type: assignment.principalType === 'User' ? 'user' : 'service_principal' },
        track: GRAPH_TRACK,
      });
      page.relate('account_assigned_entitlement', account, role);
    } else if (assignment.principalType === 'Group') {
      const group = page.entity({ kind: 'Entitlement', source_id: assignment.principalId, display_name: assignment.principalId, attributes: { type: 'group' }, track: GRAPH_TRACK });
      page.relate('entitlement_grants_resource', group, resource);
    }
  }
  return page.page(next ? { phase: 'roleAssignments', link: next } : null, PROVIDER);
}

function roleDefinitionOf(body: unknown): RoleDefinition {
  const properties = body && typeof body === 'object' && 'properties' in body ? body.properties : undefined;
  const permissions = properties && typeof properties === 'object' && 'permissions' in properties && Array.isArray(properties.permissions) ? (properties.permissions as unknown[]) : [];
  const list = (name: string) =>
    sortedSet(permissions.flatMap((p) => (p && typeof p === 'object' && name in p && Array.isArray((p as Record<string, unknown>)[name]) ? ((p as Record<string, unknown>)[name] as unknown[]).filter((v): v is string => typeof v === 'string') : [])));
  return {
    name: stringField(body, 'properties', 'roleName') ?? null,
    type: stringField(body, 'properties', 'type') ?? null,
    actions: list('actions'),
    notActions: list('notActions'),
    dataActions: list('dataActions'),
    notDataActions: list('notDataActions'),
  };
}

function roleAtScope(scope: string, roleDefinitionId: string, definition: RoleDefinition | null, page: PageBuilder): EntityRef {
  const guid = roleDefinitionId.slice(roleDefinitionId.lastIndexOf('/') + 1).toLowerCase();
  const at = normalizedScope(scope);
  const attributes: Record<string, AttributeValue> = {
    type: 'azure_role',
    role_name: definition?.name ?? null,
    role_type: definition?.type ?? null,
    role_definition_id: guid,
    scope: at,
    actions: definition?.actions ?? [],
    not_actions: definition?.notActions ?? [],
    data_actions: definition?.dataActions ?? [],
    not_data_actions: definition?.notDataActions ?? [],
  };
  return page.entity({
    kind: 'Entitlement',
    source_id: `${at === '/' ? '' : at}/providers/microsoft.authorization/roledefinitions/${guid}`,
    display_name: `${definition?.name ?? guid} @ ${at}`,
    attributes,
  });
}

/** Names and ids from the lower-cased scope: one scope written in two casings is one object. */
function scopeResource(scope: string, page: PageBuilder): EntityRef {
  const at = normalizedScope(scope);
  const parts = /^\/subscriptions\/([^/]+)(?:\/resourcegroups\/([^/]+)(?:\/providers\/([^/]+\/[^/]+))?)?/.exec(at);
  const type = at === '/' ? 'root' : at.startsWith('/providers/microsoft.management/managementgroups/') ? 'management_group' : !parts ? 'other' : parts[3] ? 'resource' : parts[2] ? 'resource_group' : 'subscription';
  return page.entity({
    kind: 'Resource',
    source_id: at,
    display_name: at,
    attributes: { provider: 'azure', scope_type: type, subscription_id: parts?.[1] ?? null, resource_group: parts?.[2] ?? null, resource_type: parts?.[3] ?? null },
  });
}

function normalizedScope(scope: string): string {
  const trimmed = scope.toLowerCase().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
