/**
 * A local Microsoft Entra ID + Microsoft Graph + Azure Resource Manager on one loopback port
 * (point `endpoints.login`, `.graph` and `.arm` at it): the v2.0 token endpoint (client
 * credentials, AADSTS errors), Graph reads guarded by application permissions, and ARM reads
 * guarded by a Reader assignment per subscription. Tokens are opaque here and bound to their
 * audience, as real ones are. The data is azure-directory.ts's tenant. Tests change `state`.
 *
 * What it reproduces of the Microsoft Graph documentation ("Paging Microsoft Graph data",
 * "Microsoft Graph throttling guidance", "Microsoft Graph error responses", the v1.0 list
 * operations of users, servicePrincipals, groups, transitiveMembers and unifiedRole*):
 * - server-side paging with `$top` honoured (1..999, else 400) and a default page of 100;
 *   `@odata.nextLink` is an absolute URL carrying the original query plus an opaque `$skiptoken`
 *   (a token from another listing is refused); `graphPageSize` makes pages smaller than asked,
 *   as Graph may; `$select` projects the listed properties (`id` always), directory objects carry
 *   `@odata.type`; `$expand=principal` on role assignments;
 * - error bodies `{error: {code, message, innerError: {date, request-id, client-request-id}}}`:
 *   403 `Authorization_RequestDenied` per endpoint for a missing application permission, 401
 *   `InvalidAuthenticationToken`;
 * - 429 `TooManyRequests` with `Retry-After` (seconds), for every call (`throttle`) or for the
 *   next N calls of a surface (`throttleBurst`).
 * And of Azure Resource Manager (Microsoft.Authorization 2022-04-01, Subscriptions 2022-12-01):
 * `api-version` required on every call (400 `MissingApiVersionParameter`); role assignments of a
 * subscription (at, above and below it) paged by `nextLink` with `$skipToken`; role definitions by
 * id; 403 `AuthorizationFailed`, 404 `SubscriptionNotFound`; 429 with `Retry-After`; the
 * `x-ms-ratelimit-remaining-subscription-reads` header. A principal whose role on a subscription
 * reads it but lacks Microsoft.Authorization/roleAssignments/read (`withoutAssignmentsRead`) gets
 * the subscription and an empty role assignments list with 200, not a 403: what ARM answered in
 * azure-sdk-for-python#22873 (a Management Group Contributor listing a subscription's assignments).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { directoryObject, sampleTenant, transitiveMembers, withoutMembers, type FakeTenant } from './azure-directory';
import { json, startLocalServer, type LocalReply, type LocalRequest } from './local-server';

export const azureApp = {
  tenantId: '3f2a9c1e-7b4d-4e8a-9c6b-1d2e3f4a5b6c',
  clientId: 'c0ffee00-1234-4abc-8def-0123456789ab',
  clientSecret: 'tessera~LocalClientSecret.ForTheFakeAzure_01',
};

export const azureSubscriptions = ['11111111-2222-4333-8444-555555555555', '66666666-7777-4888-9999-aaaaaaaaaaaa'];

export function sampleAzureTenant(): FakeTenant {
  const [a = '', b = ''] = azureSubscriptions;
  return sampleTenant(a, b, azureApp);
}

type Surface = 'token' | 'graph' | 'arm';

export interface FakeAzureState {
  /** Application permissions granted (with admin consent) to the app. */
  graphPermissions: Set<string>;
  /** Subscriptions that exist in the tenant. */
  subscriptions: Set<string>;
  /** Subscriptions where the app's service principal holds Reader. */
  readerOn: Set<string>;
  /** Subscriptions where its role reads the subscription but not its role assignments. */
  withoutAssignmentsRead: Set<string>;
  throttle?: Surface;
  /** The next `count` calls to `surface` answer 429 with this Retry-After. */
  throttleBurst?: { surface: Surface; count: number; retryAfterSeconds: number };
  hang?: Surface;
  tenant: FakeTenant;
  /** Most items in a Graph page, whatever `$top` asks. */
  graphPageSize: number;
  /** Items in an ARM role assignments page. */
  armPageSize: number;
  /** When set, Graph's next links point at this origin instead of the fake's own. */
  nextLinkOrigin?: string;
}

export interface FakeAzureCall {
  surface: Surface;
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form fields of a token request. */
  form?: URLSearchParams;
  authorization?: string;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface FakeAzure {
  url: string;
  state: FakeAzureState;
  calls: FakeAzureCall[];
  /** Access tokens issued so far (none may leak into outcomes or cursors). */
  issuedTokens: string[];
  close(): Promise<void>;
}

const GRAPH_AUDIENCE = 'https://graph.microsoft.com/.default';
const ARM_AUDIENCE = 'https://management.azure.com/.default';
const DEFAULT_GRAPH_PAGE = 100;
const MAX_GRAPH_TOP = 999;

/** Graph listings: path pattern → the least-privileged application permission and the items. */
const GRAPH_LISTINGS: { pattern: RegExp; permission: string; items: (tenant: FakeTenant, id: string) => Record<string, unknown>[] | undefined }[] = [
  { pattern: /^\/v1\.0\/users$/, permission: 'User.Read.All', items: (t) => t.users.map((u) => ({ ...u })) },
  { pattern: /^\/v1\.0\/servicePrincipals$/, permission: 'Application.Read.All', items: (t) => t.servicePrincipals.map((s) => ({ ...s })) },
  { pattern: /^\/v1\.0\/groups$/, permission: 'GroupMember.Read.All', items: (t) => t.groups.map((g) => ({ ...withoutMembers(g) })) },
  {
    pattern: /^\/v1\.0\/groups\/([^/]+)\/transitiveMembers$/,
    permission: 'GroupMember.Read.All',
    items: (t, id) => (t.groups.some((g) => g.id === id) ? transitiveMembers(t, id).flatMap((m): Record<string, unknown>[] => { const o = directoryObject(t, m); return o ? [o] : []; }) : undefined),
  },
  { pattern: /^\/v1\.0\/roleManagement\/directory\/roleDefinitions$/, permission: 'RoleManagement.Read.Directory', items: (t) => t.roleDefinitions.map((r) => ({ ...r })) },
  { pattern: /^\/v1\.0\/roleManagement\/directory\/roleAssignments$/, permission: 'RoleManagement.Read.Directory', items: (t) => t.roleAssignments.map((r) => ({ ...r })) },
];

export async function startFakeAzure(initial: Partial<FakeAzureState> = {}, port = 0): Promise<FakeAzure> {
  const state: FakeAzureState = {
    graphPermissions: new Set(GRAPH_LISTINGS.map((l) => l.permission)),
    subscriptions: new Set(azureSubscriptions),
    readerOn: new Set(azureSubscriptions),
    withoutAssignmentsRead: new Set(),
    tenant: sampleAzureTenant(),
    graphPageSize: DEFAULT_GRAPH_PAGE,
    armPageSize: 1000,
    ...initial,
  };
  const tokens = new Map<string, string>(); // access token → audience
  const calls: FakeAzureCall[] = [];
  const issuedTokens: string[] = [];
  let remainingReads = 12_000;
  let origin = '';

  const handle = (request: LocalRequest): LocalReply | 'hang' => {
    const path = request.url.pathname;
    const surface: Surface = path.endsWith('/oauth2/v2.0/token') ? 'token' : path.startsWith('/v1.0/') ? 'graph' : 'arm';
    const form = surface === 'token' ? new URLSearchParams(request.body) : undefined;
    calls.push({ surface, method: request.method, path, query: request.url.searchParams, form, authorization: request.headers.authorization, at: Date.now() });

    if (state.hang === surface) return 'hang';
    if (state.throttle === surface) return tooMany(surface, 7);
    if (state.throttleBurst?.surface === surface && state.throttleBurst.count > 0) {
      state.throttleBurst.count -= 1;
      return tooMany(surface, state.throttleBurst.retryAfterSeconds);
    }
    if (surface === 'token') return token(path, form ?? new URLSearchParams());
    const audience = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (surface === 'graph') return graph(path, request.url.searchParams, audience);
    return arm(path, request.url.searchParams, audience);
  };

  function token(path: string, form: URLSearchParams): LocalReply {
    const tenant = path.split('/')[1];
    if (tenant !== azureApp.tenantId) {
      return json(400, { error: 'invalid_request', error_description: `AADSTS90002: Tenant '${tenant}' not found.` });
    }
    if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003' });
    if (form.get('client_id') !== azureApp.clientId) {
      return json(400, { error: 'unauthorized_client', error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found in the directory.` });
    }
    if (form.get('client_secret') !== azureApp.clientSecret) {
      return json(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    }
    const scope = form.get('scope') ?? '';
    if (scope !== GRAPH_AUDIENCE && scope !== ARM_AUDIENCE) return json(400, { error: 'invalid_scope', error_description: 'AADSTS1002012' });
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, scope);
    issuedTokens.push(accessToken);
    return json(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: accessToken });
  }

  function graph(path: string, query: URLSearchParams, audience: string | undefined): LocalReply {
    if (audience !== GRAPH_AUDIENCE) return graphError(401, 'InvalidAuthenticationToken', 'Access token validation failure. Invalid audience.');
    const listing = GRAPH_LISTINGS.map((l) => ({ l, match: l.pattern.exec(path) })).find((m) => m.match);
    if (!listing?.match) return graphError(404, 'Request_ResourceNotFound', `Resource '${path}' does not exist or one of its queried reference-property objects are not present.`);
    if (!state.graphPermissions.has(listing.l.permission)) return graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');

    const items = listing.l.items(state.tenant, listing.match[1] ?? '');
    if (!items) return graphError(404, 'Request_ResourceNotFound', `Resource '${listing.match[1]}' does not exist or one of its queried reference-property objects are not present.`);
    const top = query.get('$top');
    if (top !== null && !(/^\d+$/.test(top) && Number(top) >= 1 && Number(top) <= MAX_GRAPH_TOP)) {
      return graphError(400, 'Request_UnsupportedQuery', `Invalid page size specified: '${top}'. Must be between 1 and 999 inclusive.`);
    }
    let start = 0;
    const skiptoken = query.get('$skiptoken');
    if (skiptoken !== null) {
      const decoded = decodeToken(skiptoken);
      if (!decoded || decoded.path !== path) return graphError(400, 'Directory_ExpiredPageToken', 'The specified page token value has expired and can no longer be included in your request.');
      start = decoded.offset;
    }
    const size = Math.min(top === null ? DEFAULT_GRAPH_PAGE : Number(top), state.graphPageSize);
    const select = query.get('$select')?.split(',').map((s) => s.trim());
    const expandPrincipal = query.get('$expand') === 'principal';
    const page = items.slice(start, start + size).map((item) => {
      const shaped = project(item, select);
      if (expandPrincipal) {
        const principal = directoryObject(state.tenant, String(item.principalId));
        shaped.principal = principal ? project(principal, ['displayName']) : null;
      }
      return shaped;
    });
    const body: Record<string, unknown> = { '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#${path.split('/').at(-1)}`, value: page };
    if (start + size < items.length) {
      // As Graph writes them: the original query, `$` and commas left as they are, plus the token.
      const next = [...query.entries()].filter(([k]) => k !== '$skiptoken').concat([['$skiptoken', encodeToken(path, start + size)]]);
      const search = next.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&');
      body['@odata.nextLink'] = `${state.nextLinkOrigin ?? origin}${path}?${search}`;
    }
    return json(200, body);
  }

  function arm(path: string, query: URLSearchParams, audience: string | undefined): LocalReply {
    const route =
      /^\/subscriptions\/([^/]+)$/.exec(path) ??
      /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Authorization\/(roleAssignments)$/.exec(path) ??
      /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Authorization\/(roleDefinitions)\/([^/]+)$/.exec(path);
    if (!route) return json(404, { error: { code: 'InvalidResourceType', message: 'The resource type could not be found.' } });
    if (!query.get('api-version')) return json(400, { error: { code: 'MissingApiVersionParameter', message: 'The api-version query parameter (?api-version=) is required for all requests.' } });
    if (audience !== ARM_AUDIENCE) return json(401, { error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' } });
    const subscription = route[1] ?? '';
    const data = state.tenant.subscriptions[subscription];
    if (!state.subscriptions.has(subscription) || !data) {
      return json(404, { error: { code: 'SubscriptionNotFound', message: `The subscription '${subscription}' could not be found.` } });
    }
    const action = route[2] === 'roleAssignments' ? 'Microsoft.Authorization/roleAssignments/read' : route[2] === 'roleDefinitions' ? 'Microsoft.Authorization/roleDefinitions/read' : 'Microsoft.Resources/subscriptions/read';
    if (!state.readerOn.has(subscription)) {
      return json(403, { error: { code: 'AuthorizationFailed', message: `The client '${azureApp.clientId}' with object id '${azureApp.clientId}' does not have authorization to perform action '${action}' over scope '/subscriptions/${subscription}' or the scope is invalid.` } });
    }
    remainingReads -= 1;
    const headers = { 'x-ms-ratelimit-remaining-subscription-reads': String(remainingReads), 'x-ms-request-id': randomUUID() };
    const sub = `/subscriptions/${subscription}`;

    if (!route[2]) {
      return json(200, { id: sub, subscriptionId: subscription, tenantId: azureApp.tenantId, displayName: data.displayName, state: data.state, authorizationSource: 'RoleBased', subscriptionPolicies: { locationPlacementId: 'Public_2014-09-01', quotaId: 'PayAsYouGo_2014-09-01', spendingLimit: 'Off' } }, headers);
    }
    if (route[2] === 'roleDefinitions') {
      const definition = state.tenant.armRoleDefinitions.find((d) => d.guid === route[3]);
      if (!definition) return json(404, { error: { code: 'RoleDefinitionDoesNotExist', message: 'The specified role definition does not exist.' } }, headers);
      return json(200, {
        id: `${sub}/providers/Microsoft.Authorization/roleDefinitions/${definition.guid}`,
        name: definition.guid,
        type: 'Microsoft.Authorization/roleDefinitions',
        properties: {
          roleName: definition.roleName,
          type: definition.type,
          description: `${definition.roleName} role`,
          assignableScopes: ['/'],
          permissions: [{ actions: definition.actions, notActions: definition.notActions ?? [], dataActions: definition.dataActions ?? [], notDataActions: [] }],
          createdOn: '2024-01-02T03:04:05.0000000Z',
          updatedOn: '2024-01-02T03:04:05.0000000Z',
        },
      }, headers);
    }
    let start = 0;
    const skipToken = query.get('$skipToken');
    if (skipToken !== null) {
      const decoded = decodeToken(skipToken);
      if (!decoded || decoded.path !== path) return json(400, { error: { code: 'InvalidSkipToken', message: 'The skip token is invalid.' } }, headers);
      start = decoded.offset;
    }
    const all = state.withoutAssignmentsRead.has(subscription) ? [] : data.roleAssignments;
    const page = all.slice(start, start + state.armPageSize).map((a) => ({
      id: `${a.scope === '/' ? '' : a.scope}/providers/Microsoft.Authorization/roleAssignments/${a.guid}`,
      type: 'Microsoft.Authorization/roleAssignments',
      name: a.guid,
      properties: {
        roleDefinitionId: `${sub}/providers/Microsoft.Authorization/roleDefinitions/${a.roleDefinitionGuid}`,
        principalId: a.principalId,
        principalType: a.principalType,
        scope: a.scope,
        condition: null,
        conditionVersion: null,
        createdOn: '2024-01-02T03:04:05.0000000Z',
        updatedOn: '2024-01-02T03:04:05.0000000Z',
        createdBy: null,
        updatedBy: null,
        delegatedManagedIdentityResourceId: null,
        description: null,
      },
    }));
    const body: Record<string, unknown> = { value: page };
    if (start + state.armPageSize < all.length) {
      body.nextLink = `${origin}${path}?api-version=${query.get('api-version') ?? ''}&$skipToken=${encodeURIComponent(encodeToken(path, start + state.armPageSize))}`;
    }
    return json(200, body, headers);
  }

  const server = await startLocalServer(handle, port);
  origin = server.url;
  return { url: server.url, state, calls, issuedTokens, close: () => server.close() };
}

function tooMany(surface: Surface, retryAfterSeconds: number): LocalReply {
  const headers = { 'retry-after': String(retryAfterSeconds) };
  if (surface === 'graph') return { ...graphError(429, 'TooManyRequests', 'Too many requests from Identifier: tenant under category: throttle.aad.ags. Please try again later.'), headers: { 'content-type': 'application/json', ...headers } };
  return json(429, { error: { code: 'TooManyRequests', message: 'Too many requests' } }, headers);
}

function graphError(status: number, code: string, message: string): LocalReply {
  const requestId = randomUUID();
  return json(status, { error: { code, message, innerError: { date: new Date().toISOString().slice(0, 19), 'request-id': requestId, 'client-request-id': requestId } } });
}

/** `$select`: the listed properties only (`id` and `@odata.type` always). */
function project(item: Record<string, unknown>, select: string[] | undefined): Record<string, unknown> {
  if (!select) return { ...item };
  const shaped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === 'id' || key === '@odata.type' || select.includes(key)) shaped[key] = value;
  }
  return shaped;
}

/** Page tokens are opaque to clients; these name the listing they belong to and the next item. */
function encodeToken(path: string, offset: number): string {
  return Buffer.from(JSON.stringify({ path, offset, salt: randomBytes(6).toString('hex') })).toString('base64url');
}

function decodeToken(token: string): { path: string; offset: number } | undefined {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { path?: unknown; offset?: unknown };
    return typeof value.path === 'string' && typeof value.offset === 'number' ? { path: value.path, offset: value.offset } : undefined;
  } catch {
    return undefined;
  }
}
