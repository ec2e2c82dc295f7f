/**
 * A local Okta org management API on a loopback port (point `endpoints.okta` at it). What it
 * reproduces of Okta's published behaviour:
 * - `Authorization: SSWS <token>`; reads guarded by the OAuth scope they need; Okta's error
 *   bodies (E0000011 invalid token 401, E0000006 forbidden 403, E0000047 rate limit 429,
 *   E0000007 not found 404);
 * - lists (users, groups with `q` name-prefix search, group members, apps, app group
 *   assignments with `expand=group`) paged with `limit` (capped at each list's maximum) and
 *   the `after` cursor, the next page announced in `Link: <…>; rel="next"` (absolute URL);
 * - rate limits per bucket (Okta's management buckets: `/api/v1/users`, `/api/v1/groups*`,
 *   `/api/v1/apps*`) in fixed windows, every answer carrying `X-Rate-Limit-Limit`,
 *   `X-Rate-Limit-Remaining` and `X-Rate-Limit-Reset` (epoch seconds); over the limit a 429
 *   until the window resets; and 429 bursts (another client of the org using the quota);
 * - the user an API token acts for (`tokenUser`: "API tokens are generated with the permissions
 *   of the user that created the token. If a user's permissions change, then so do the token's",
 *   Okta's "Manage Okta API tokens"): `GET /api/v1/users/me` answers that user and
 *   `GET /api/v1/users/{id}/roles` its admin role assignments (an empty array for none, as the
 *   Roles API lists a user's assignments). When it holds no admin role, `/api/v1/users` answers
 *   200 with an empty list: what Okta orgs answered such a token in issue 27, and what peers'
 *   trackers report as syncs that "found zero accounts". Other reads still follow `scopes`.
 * Tests change `state` (scopes, the org's data, limits) between calls, and may `pause` the org:
 * requests then wait (`waiting` counts them) until `allow(n)` lets the next n through, in the
 * order they came, or `resume` answers them all; a waiting request is answered from the state
 * as it is when it is let through.
 */
import { randomBytes } from 'node:crypto';
import { json, startLocalServer, type LocalReply, type LocalRequest } from './local-server';

export const oktaToken = '00TesseraLocalOktaApiToken_0123456789abcdef';

export interface OktaUserObject {
  id: string;
  status: string;
  created: string;
  lastUpdated: string;
  type: { id: string };
  profile: { login: string; email: string; firstName: string; lastName: string; mobilePhone: null; secondEmail: null };
}

export interface OktaGroupObject {
  id: string;
  created: string;
  lastUpdated: string;
  objectClass: string[];
  type: 'OKTA_GROUP' | 'APP_GROUP' | 'BUILT_IN';
  profile: { name: string; description: string | null };
}

export interface OktaAppObject {
  id: string;
  name: string;
  label: string;
  status: 'ACTIVE' | 'INACTIVE';
  signOnMode: string;
  created: string;
  lastUpdated: string;
}

/** The org's data. Lists are kept sorted by id: `after` is the last id of the previous page. */
export interface FakeOktaOrg {
  users: OktaUserObject[];
  groups: OktaGroupObject[];
  /** Group id → member user ids. */
  members: Map<string, string[]>;
  apps: OktaAppObject[];
  /** App id → assigned group ids. */
  appGroups: Map<string, string[]>;
}

export type OktaBucket = 'users' | 'groups' | 'apps' | 'other';

export interface FakeOktaState {
  /** Scopes the token's admin may use. */
  scopes: Set<string>;
  /** When set, every request is refused with 429 and this X-Rate-Limit-Reset (epoch seconds). */
  throttleUntil?: number;
  hang?: boolean;
  org: FakeOktaOrg;
  /** Requests allowed per bucket and window; a bucket not listed is not limited. */
  rateLimits: { windowMs: number; perBucket: Partial<Record<OktaBucket, number>> };
  /** The next this many requests answer 429 (as when another client spends the org's quota). */
  burst429: number;
  /** The user the API token acts for (its creator) and the admin roles that user holds. */
  tokenUser: { user: OktaUserObject; roles: string[] };
  /** Pages shorter than Okta's maxima (Okta may return fewer items than `limit`): exercises paging with little data. */
  maxPage?: number;
}

export interface FakeOktaCall {
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  status: number;
  /** Epoch milliseconds the request arrived. */
  at: number;
  bucket: OktaBucket;
  /** What the answer said of the bucket: calls left and the reset (epoch seconds). */
  remaining?: number;
  reset?: number;
}

export interface FakeOkta {
  url: string;
  state: FakeOktaState;
  calls: FakeOktaCall[];
  /** Requests wait from now on until let through. */
  pause(): void;
  /** Lets the next `n` waiting (or arriving) requests through; the org stays paused. */
  allow(n: number): void;
  /** Answers every waiting request and stops pausing. */
  resume(): void;
  /** Requests waiting while paused. */
  readonly waiting: number;
  close(): Promise<void>;
}

/** Each list's `limit` maximum (and default when `limit` is absent), per Okta's API reference. */
const PAGE = { users: 200, groups: 10_000, members: 1_000, apps: 200, appGroups: 200 } as const;

const SCOPE_OF_BUCKET: Record<OktaBucket, string> = { users: 'okta.users.read', groups: 'okta.groups.read', apps: 'okta.apps.read', other: 'okta.roles.read' };

const oktaError = (status: number, errorCode: string, errorSummary: string, headers: Record<string, string> = {}) =>
  json(status, { errorCode, errorSummary, errorLink: errorCode, errorId: `oae${randomBytes(8).toString('hex')}`, errorCauses: [] }, headers);

/** Okta ids are 20 characters: a 3-letter type prefix and 17 more; zero-padded counters keep them sorted. */
export const oktaId = (prefix: '00u' | '00g' | '0oa', n: number) => `${prefix}${String(n).padStart(17, '0')}`;

const STAMP = '2026-01-15T08:00:00.000Z';

export function oktaUser(n: number, overrides: Partial<OktaUserObject['profile']> & { status?: string } = {}): OktaUserObject {
  const { status, ...profile } = overrides;
  const login = profile.login ?? `user${n}@example.test`;
  return {
    id: oktaId('00u', n),
    status: status ?? 'ACTIVE',
    created: STAMP,
    lastUpdated: STAMP,
    type: { id: 'oty00000000000000001' },
    profile: { login, email: profile.email ?? login, firstName: profile.firstName ?? 'User', lastName: profile.lastName ?? String(n), mobilePhone: null, secondEmail: null },
  };
}

export function oktaGroup(n: number, name = `group-${n}`): OktaGroupObject {
  return { id: oktaId('00g', n), created: STAMP, lastUpdated: STAMP, objectClass: ['okta:user_group'], type: 'OKTA_GROUP', profile: { name, description: null } };
}

export function oktaApp(n: number, label = `App ${n}`): OktaAppObject {
  return { id: oktaId('0oa', n), name: `app_${n}`, label, status: 'ACTIVE', signOnMode: 'SAML_2_0', created: STAMP, lastUpdated: STAMP };
}

/** Builds an org with sorted lists from plain data. */
export function buildOrg(input: { users: OktaUserObject[]; groups: OktaGroupObject[]; members: Record<string, string[]>; apps: OktaAppObject[]; appGroups: Record<string, string[]> }): FakeOktaOrg {
  const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    users: [...input.users].sort(byId),
    groups: [...input.groups].sort(byId),
    members: new Map(Object.entries(input.members).map(([group, ids]) => [group, [...ids].sort()])),
    apps: [...input.apps].sort(byId),
    appGroups: new Map(Object.entries(input.appGroups).map(([app, ids]) => [app, [...ids].sort()])),
  };
}

export async function startFakeOkta(initial: Partial<FakeOktaState> = {}, port = 0): Promise<FakeOkta> {
  const state: FakeOktaState = {
    scopes: new Set(Object.values(SCOPE_OF_BUCKET)),
    org: buildOrg({ users: [], groups: [], members: {}, apps: [], appGroups: {} }),
    rateLimits: { windowMs: 60_000, perBucket: {} },
    burst429: 0,
    tokenUser: { user: oktaUser(9999, { login: 'tessera-discovery@example.test' }), roles: ['READ_ONLY_ADMIN'] },
    ...initial,
  };
  const calls: FakeOktaCall[] = [];
  const windows = new Map<OktaBucket, { start: number; used: number }>();
  let url = '';

  /** Counts the request in its bucket's window; the rate-limit headers, and whether it is over. */
  const meter = (bucket: OktaBucket, now: number): { headers: Record<string, string>; over: boolean } => {
    const limit = state.rateLimits.perBucket[bucket];
    if (limit === undefined) return { headers: { 'x-rate-limit-limit': '1200', 'x-rate-limit-remaining': '1199', 'x-rate-limit-reset': String(Math.ceil((now + 60_000) / 1000)) }, over: false };
    let window = windows.get(bucket);
    if (!window || now >= window.start + state.rateLimits.windowMs) windows.set(bucket, (window = { start: now, used: 0 }));
    window.used += 1;
    const over = window.used > limit;
    return {
      headers: {
        'x-rate-limit-limit': String(limit),
        'x-rate-limit-remaining': String(Math.max(0, limit - window.used)),
        'x-rate-limit-reset': String(Math.ceil((window.start + state.rateLimits.windowMs) / 1000)),
      },
      over,
    };
  };

  const handle = (request: LocalRequest): LocalReply | 'hang' => {
    const now = Date.now();
    const path = request.url.pathname;
    const bucket = bucketOf(path);
    const record = (reply: LocalReply): LocalReply => {
      const remaining = reply.headers?.['x-rate-limit-remaining'];
      const reset = reply.headers?.['x-rate-limit-reset'];
      calls.push({
        path, query: request.url.searchParams, authorization: request.headers.authorization, status: reply.status, at: now, bucket,
        ...(remaining ? { remaining: Number(remaining) } : {}), ...(reset ? { reset: Number(reset) } : {}),
      });
      return reply;
    };
    if (state.hang) {
      calls.push({ path, query: request.url.searchParams, authorization: request.headers.authorization, status: 0, at: now, bucket });
      return 'hang';
    }
    if (state.throttleUntil !== undefined) {
      return record(
        oktaError(429, 'E0000047', 'API call exceeded rate limit due to too many requests.', {
          'x-rate-limit-limit': '600',
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': String(state.throttleUntil),
        }),
      );
    }
    if (state.burst429 > 0) {
      state.burst429 -= 1;
      const reset = String(Math.ceil(now / 1000) + 1);
      return record(oktaError(429, 'E0000047', 'API call exceeded rate limit due to too many requests.', { 'x-rate-limit-limit': '600', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset }));
    }
    const metered = meter(bucket, now);
    if (metered.over) return record(oktaError(429, 'E0000047', 'API call exceeded rate limit due to too many requests.', metered.headers));
    if (request.headers.authorization !== `SSWS ${oktaToken}`) return record(oktaError(401, 'E0000011', 'Invalid token provided', metered.headers));
    if (!state.scopes.has(SCOPE_OF_BUCKET[bucket])) return record(oktaError(403, 'E0000006', 'You do not have permission to perform the requested action', metered.headers));
    const self = tokenUserAnswer(path);
    if (self) return record(self);
    const listed = list(path, request.url.searchParams);
    if (!listed) return record(oktaError(404, 'E0000007', `Not found: Resource not found: ${path}`, metered.headers));
    const { items, maximum, toJson } = listed;
    const query = request.url.searchParams;
    const limit = Math.min(Math.max(1, Number(query.get('limit') ?? maximum) || maximum), maximum, state.maxPage ?? maximum);
    const after = query.get('after');
    const start = after ? firstAfter(items, after) : 0;
    const page = items.slice(start, start + limit);
    const headers: Record<string, string> = { ...metered.headers, link: `<${url}${path}?${query.toString()}>; rel="self"` };
    if (start + page.length < items.length && page.length > 0) {
      const next = new URLSearchParams(query);
      next.set('after', page.at(-1)!.id);
      next.set('limit', String(limit));
      headers.link += `, <${url}${path}?${next.toString()}>; rel="next"`;
    }
    return record(json(200, page.map(toJson), headers));
  };

  /** `/users/me` and the token user's role assignments. */
  function tokenUserAnswer(path: string): LocalReply | undefined {
    const { user, roles } = state.tokenUser;
    if (path === '/api/v1/users/me') return json(200, user);
    if (path === `/api/v1/users/${user.id}/roles`) {
      return json(200, roles.map((type, i) => ({ id: `ra${String(i).padStart(17, '0')}`, label: type, type, status: 'ACTIVE', created: STAMP, lastUpdated: STAMP, assignmentType: 'USER' })));
    }
    return undefined;
  }

  /** The sorted list a path names, its page maximum, and how an item is rendered. */
  function list(path: string, query: URLSearchParams): { items: { id: string }[]; maximum: number; toJson: (item: { id: string }) => unknown } | undefined {
    const org = state.org;
    const identity = (item: { id: string }) => item;
    if (path === '/api/v1/users') return { items: state.tokenUser.roles.length === 0 ? [] : org.users, maximum: PAGE.users, toJson: identity };
    if (path === '/api/v1/groups') {
      const q = query.get('q')?.toLowerCase();
      return { items: q ? org.groups.filter((g) => g.profile.name.toLowerCase().startsWith(q)) : org.groups, maximum: PAGE.groups, toJson: identity };
    }
    if (path === '/api/v1/apps') return { items: org.apps, maximum: PAGE.apps, toJson: identity };
    if (path === '/api/v1/iam/assignees/users') return { items: [], maximum: 100, toJson: identity };
    const members = /^\/api\/v1\/groups\/([^/]+)\/users$/.exec(path);
    if (members) {
      const group = org.groups.find((g) => g.id === members[1]);
      if (!group) return undefined;
      const users = indexOf(org.users);
      const ids = org.members.get(group.id) ?? [];
      return { items: ids.map((id) => users.get(id)).filter((u): u is OktaUserObject => u !== undefined), maximum: PAGE.members, toJson: identity };
    }
    const appGroups = /^\/api\/v1\/apps\/([^/]+)\/groups$/.exec(path);
    if (appGroups) {
      const app = org.apps.find((a) => a.id === appGroups[1]);
      if (!app) return undefined;
      const groups = indexOf(org.groups);
      const expand = query.get('expand') === 'group';
      const assigned = (org.appGroups.get(app.id) ?? []).map((id) => groups.get(id)).filter((g): g is OktaGroupObject => g !== undefined);
      return {
        items: assigned,
        maximum: PAGE.appGroups,
        toJson: (g) => ({ id: g.id, priority: 0, lastUpdated: STAMP, profile: {}, ...(expand ? { _embedded: { group: g } } : {}) }),
      };
    }
    return undefined;
  }

  let paused = false;
  let allowance = 0;
  const held: (() => void)[] = [];
  const letThrough = () => {
    while (held.length > 0 && (!paused || allowance > 0)) {
      if (paused) allowance -= 1;
      held.shift()!();
    }
  };
  const gated = async (request: LocalRequest): Promise<LocalReply | 'hang'> => {
    if (paused && allowance > 0 && held.length === 0) allowance -= 1;
    else if (paused) await new Promise<void>((resolve) => held.push(resolve));
    return handle(request);
  };

  const server = await startLocalServer(gated, port);
  url = server.url;
  return {
    url: server.url,
    state,
    calls,
    pause: () => {
      paused = true;
      allowance = 0;
    },
    allow: (n) => {
      allowance += n;
      letThrough();
    },
    resume: () => {
      paused = false;
      letThrough();
    },
    get waiting() {
      return held.length;
    },
    close: () => {
      paused = false;
      letThrough();
      return server.close();
    },
  };
}

/** Id → item of a list, built once per list (tests replace lists rather than edit them in place). */
const indexes = new WeakMap<readonly { id: string }[], Map<string, unknown>>();
function indexOf<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  let index = indexes.get(items) as Map<string, T> | undefined;
  if (!index || index.size !== items.length) indexes.set(items, (index = new Map(items.map((item) => [item.id, item]))));
  return index;
}

function bucketOf(path: string): OktaBucket {
  if (path === '/api/v1/users') return 'users';
  if (path.startsWith('/api/v1/groups')) return 'groups';
  if (path.startsWith('/api/v1/apps')) return 'apps';
  return 'other';
}

/** Index of the first item whose id sorts after `after` (binary search: lists are sorted by id). */
function firstAfter(items: readonly { id: string }[], after: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (items[mid]!.id <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}
