/**
 * Discovery of identity provider A (an Okta org), exactly the contract's mapping:
 * - track `users`: `GET /api/v1/users` → one `Account` per user (source_id = user id), one
 *   `Principal` per distinct `profile.email` (case-insensitive; source_id = the lower-cased
 *   email) and `principal_represents_account`;
 * - track `groups`: `GET /api/v1/groups` (the scope's `group_filter` as `q`) → one
 *   `Entitlement` per group, then per group `GET /api/v1/groups/{id}/users` →
 *   `account_assigned_entitlement` from each member's account;
 * - track `apps`: `GET /api/v1/apps` → one `Resource` per application, then per app
 *   `GET /api/v1/apps/{id}/groups?expand=group` → `entitlement_grants_resource` from each
 *   assigned group (groups outside `group_filter` are left out, as they are not discovered).
 *
 * Paging follows Okta's `Link: <…>; rel="next"` header to the end, on the org's own origin only
 * (the link is stored without its origin, so the API token never goes anywhere else). Requests
 * are paced per Okta rate-limit bucket from `X-Rate-Limit-Remaining`/`-Reset`; a 429 answers
 * `throttled` with the reset time. One request per `readPage`: the cursor holds where it is,
 * except when the users list comes back empty: then who the token acts for and its admin roles
 * are read too (`token-rights.ts`), and a token without an admin role refuses the track.
 */
import type { RemediationItem } from '../connector';
import type { Discovery, DiscoveryContext, ObservedEntity, ObservedRelationship, PageOutcome, TrackCursor } from '../discovery';
import { oktaTracks, type OktaConfiguration, type OktaScope } from './integration';
import { oktaApiScopes, missingScope, notAnOktaOrg, PROVIDER, rejectedToken } from './remediation';
import { unexpectedAnswer, unreachable } from '../outcome';
import { callProvider, stringField } from '../provider-http';
import { tokenWithoutAdminRole } from './token-rights';

/** Okta's page size maxima for these lists. */
const USERS_PAGE = 200;
const GROUPS_PAGE = 200;
const MEMBERS_PAGE = 1000;
const APPS_PAGE = 200;
const APP_GROUPS_PAGE = 200;

type Bucket = 'users' | 'groups' | 'apps';
type TrackName = 'users' | 'groups' | 'apps';

/** Which scope a track needs, for the remediation of a 403. */
const SCOPE_OF_TRACK: Record<TrackName, string> = { users: 'okta.users.read', groups: 'okta.groups.read', apps: 'okta.apps.read' };

/**
 * Cursor of the `groups` and `apps` tracks: the list page being expanded (its ids and names),
 * which of them is being read, and the next link of each level (`list` null: no more pages).
 */
type ContainerCursor = {
  started: boolean;
  list: string | null;
  page: { id: string; name: string }[];
  index: number;
  inner: string | null;
};

interface OktaUser {
  id: string;
  status?: string;
  profile?: { login?: string; email?: string; firstName?: string; lastName?: string };
}

interface OktaGroup {
  id: string;
  type?: string;
  profile?: { name?: string; description?: string | null };
}

interface OktaApp {
  id: string;
  name?: string;
  label?: string;
  status?: string;
  signOnMode?: string;
}

type Answer = { ok: true; body: unknown; next: string | null } | { ok: false; outcome: PageOutcome; status?: number };

async function get(configuration: OktaConfiguration, context: DiscoveryContext, bucket: Bucket, track: TrackName, pathAndQuery: string): Promise<Answer> {
  const base = (context.endpoints?.okta ?? configuration.org_url).replace(/\/+$/, '');
  await context.pacer.wait(bucket, context.signal);
  const answer = await callProvider(`${base}${pathAndQuery}`, { headers: { authorization: `SSWS ${configuration.api_token}` }, signal: context.signal });
  if (answer.kind === 'timeout') return { ok: false, outcome: failed(unreachable(PROVIDER, 'no answer in time')) };
  if (answer.kind === 'unreachable') return { ok: false, outcome: failed(unreachable(PROVIDER, answer.reason)) };
  const reset = Number(answer.headers.get('x-rate-limit-reset'));
  const remaining = Number(answer.headers.get('x-rate-limit-remaining'));
  const resetAtMs = Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined;
  context.pacer.observe(bucket, {
    ...(answer.headers.has('x-rate-limit-remaining') && Number.isFinite(remaining) ? { remaining } : {}),
    ...(resetAtMs ? { resetAtMs } : {}),
  });
  switch (answer.status) {
    case 200: {
      const next = nextLinkOf(answer.headers.get('link'), base);
      if (next === false) return { ok: false, outcome: failed(unexpectedAnswer(PROVIDER, 'a next-page link to another host')) };
      return { ok: true, body: answer.body, next };
    }
    case 429: {
      const retryAtMs = resetAtMs ?? context.now() + 60_000;
      context.pacer.observe(bucket, { retryAtMs });
      return { ok: false, outcome: { kind: 'throttled', retryAtMs } };
    }
    case 401:
      return { ok: false, outcome: failed(rejectedToken(stringField(answer.body, 'errorCode'))) };
    case 403: {
      const scope = oktaApiScopes.find((s) => s.scope === SCOPE_OF_TRACK[track])!;
      return { ok: false, outcome: { kind: 'refused', remediation: [missingScope(scope)] } };
    }
    case 404:
      return { ok: false, outcome: { kind: 'failed', remediation: [notAnOktaOrg()] }, status: 404 };
    default:
      return { ok: false, outcome: failed(unexpectedAnswer(PROVIDER, `HTTP ${answer.status}`)) };
  }
}

const failed = (item: RemediationItem): PageOutcome => ({ kind: 'failed', remediation: [item] });

/**
 * The path and query of the `rel="next"` link (RFC 8288), null when there is none, false when
 * it points at another origin than the org's.
 */
export function nextLinkOf(header: string | null, base: string): string | null | false {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part.trim());
    if (!match) continue;
    let url: URL;
    try {
      url = new URL(match[1]!, base);
    } catch {
      return false;
    }
    if (url.origin !== new URL(base).origin) return false;
    return `${url.pathname}${url.search}`;
  }
  return null;
}

const asArray = <T>(body: unknown): T[] => (Array.isArray(body) ? (body as T[]) : []);

function userObservations(users: OktaUser[], track: string | undefined): { entities: ObservedEntity[]; relationships: ObservedRelationship[] } {
  const entities: ObservedEntity[] = [];
  const relationships: ObservedRelationship[] = [];
  for (const user of users) {
    if (typeof user.id !== 'string') continue;
    const profile = user.profile ?? {};
    entities.push({
      kind: 'Account',
      source_id: user.id,
      display_name: profile.login ?? user.id,
      attributes: {
        login: profile.login ?? null,
        email: profile.email ?? null,
        status: user.status ?? null,
        first_name: profile.firstName ?? null,
        last_name: profile.lastName ?? null,
      },
      ...(track ? { track } : {}),
    });
    const email = profile.email?.trim().toLowerCase();
    if (!email) continue;
    entities.push({ kind: 'Principal', source_id: email, display_name: email, attributes: { email }, ...(track ? { track } : {}) });
    relationships.push({ kind: 'principal_represents_account', from: { kind: 'Principal', source_id: email }, to: { kind: 'Account', source_id: user.id }, ...(track ? { track } : {}) });
  }
  return { entities, relationships };
}

function groupEntity(group: OktaGroup, track?: string): ObservedEntity {
  return {
    kind: 'Entitlement',
    source_id: group.id,
    display_name: group.profile?.name ?? group.id,
    attributes: { name: group.profile?.name ?? null, description: group.profile?.description ?? null, type: group.type ?? null },
    ...(track ? { track } : {}),
  };
}

async function readUsers(configuration: OktaConfiguration, cursor: TrackCursor | null, context: DiscoveryContext): Promise<PageOutcome> {
  const path = typeof cursor === 'string' ? cursor : `/api/v1/users?limit=${USERS_PAGE}`;
  const answer = await get(configuration, context, 'users', 'users', path);
  if (!answer.ok) return answer.outcome;
  const users = asArray<OktaUser>(answer.body);
  if (cursor === null && users.length === 0 && answer.next === null) {
    const base = (context.endpoints?.okta ?? configuration.org_url).replace(/\/+$/, '');
    const pace = () => context.pacer.wait('other', context.signal);
    const lacking = await tokenWithoutAdminRole({ base, apiToken: configuration.api_token, signal: context.signal, pace });
    if (lacking) return { kind: 'refused', remediation: [lacking] };
  }
  return { kind: 'page', ...userObservations(users, undefined), next: answer.next };
}

/** Both container tracks walk a list, and for each item of a list page, that item's own list. */
async function readContainer(
  configuration: OktaConfiguration,
  cursor: ContainerCursor,
  context: DiscoveryContext,
  spec: {
    track: TrackName;
    bucket: Bucket;
    firstList: string;
    listed: (body: unknown) => { entities: ObservedEntity[]; items: { id: string; name: string }[] };
    innerFirst: (id: string) => string;
    expand: (body: unknown, owner: { id: string; name: string }) => { entities: ObservedEntity[]; relationships: ObservedRelationship[] };
  },
): Promise<PageOutcome> {
  if (cursor.index >= cursor.page.length) {
    // The list's first page, or the next one: a cursor past the last item of the last page is
    // never written (that page answers `next: null`).
    const answer = await get(configuration, context, spec.bucket, spec.track, cursor.list ?? spec.firstList);
    if (!answer.ok) return answer.outcome;
    const { entities, items } = spec.listed(answer.body);
    const next: ContainerCursor = { started: true, list: answer.next, page: items, index: 0, inner: null };
    const done = items.length === 0 && answer.next === null;
    return { kind: 'page', entities, relationships: [], next: done ? null : next };
  }
  const owner = cursor.page[cursor.index]!;
  const answer = await get(configuration, context, spec.bucket, spec.track, cursor.inner ?? spec.innerFirst(owner.id));
  let observed: { entities: ObservedEntity[]; relationships: ObservedRelationship[] } = { entities: [], relationships: [] };
  let innerNext: string | null = null;
  if (answer.ok) {
    observed = spec.expand(answer.body, owner);
    innerNext = answer.next;
  } else if (answer.status !== 404) {
    return answer.outcome;
  } // else: the group or app was deleted since its list page was read: nothing to expand
  const next: ContainerCursor = innerNext ? { ...cursor, inner: innerNext } : { ...cursor, index: cursor.index + 1, inner: null };
  const done = next.index >= next.page.length && next.list === null;
  return { kind: 'page', ...observed, next: done ? null : next };
}

const startCursor = (cursor: TrackCursor | null): ContainerCursor =>
  cursor && typeof cursor === 'object' && !Array.isArray(cursor) ? (cursor as unknown as ContainerCursor) : { started: false, list: null, page: [], index: 0, inner: null };

const nameMatches = (name: string | undefined, filter: string | undefined) => !filter || (name ?? '').toLowerCase().startsWith(filter.toLowerCase());

export const oktaDiscovery: Discovery<OktaConfiguration, OktaScope> = {
  tracks: oktaTracks,
  async readPage({ configuration, scope }, track, cursor, context) {
    try {
      if (track === 'users') return await readUsers(configuration, cursor, context);
      if (track === 'groups') {
        const filter = scope.group_filter ? `&q=${encodeURIComponent(scope.group_filter)}` : '';
        return await readContainer(configuration, startCursor(cursor), context, {
          track: 'groups',
          bucket: 'groups',
          firstList: `/api/v1/groups?limit=${GROUPS_PAGE}${filter}`,
          listed: (body) => {
            const groups = asArray<OktaGroup>(body).filter((g) => typeof g.id === 'string');
            return { entities: groups.map((g) => groupEntity(g)), items: groups.map((g) => ({ id: g.id, name: g.profile?.name ?? '' })) };
          },
          innerFirst: (id) => `/api/v1/groups/${encodeURIComponent(id)}/users?limit=${MEMBERS_PAGE}`,
          expand: (body, group) => {
            const members = asArray<OktaUser>(body).filter((u) => typeof u.id === 'string');
            // A member's account is the users track's to list (and to remove); seen here, it is
            // named from the same fields only so that the membership's end exists (a member that
            // /users does not list, such as a deprovisioned user). Its Principal is left to the
            // users track: one lookup per member, not three.
            const entities = userObservations(members, 'users').entities.filter((e) => e.kind === 'Account');
            const relationships: ObservedRelationship[] = members.map((member) => ({
              kind: 'account_assigned_entitlement',
              from: { kind: 'Account', source_id: member.id },
              to: { kind: 'Entitlement', source_id: group.id },
            }));
            return { entities, relationships };
          },
        });
      }
      if (track === 'apps') {
        return await readContainer(configuration, startCursor(cursor), context, {
          track: 'apps',
          bucket: 'apps',
          firstList: `/api/v1/apps?limit=${APPS_PAGE}`,
          listed: (body) => {
            const apps = asArray<OktaApp>(body).filter((a) => typeof a.id === 'string');
            return {
              entities: apps.map((app) => ({
                kind: 'Resource' as const,
                source_id: app.id,
                display_name: app.label ?? app.name ?? app.id,
                attributes: { name: app.name ?? null, label: app.label ?? null, status: app.status ?? null, sign_on_mode: app.signOnMode ?? null },
              })),
              items: apps.map((a) => ({ id: a.id, name: a.label ?? '' })),
            };
          },
          innerFirst: (id) => `/api/v1/apps/${encodeURIComponent(id)}/groups?limit=${APP_GROUPS_PAGE}&expand=group`,
          expand: (body, app) => {
            const entities: ObservedEntity[] = [];
            const relationships: ObservedRelationship[] = [];
            for (const assignment of asArray<{ id?: string; _embedded?: { group?: OktaGroup } }>(body)) {
              // `expand=group` embeds the group as /groups lists it, so the entity is the same
              // content and the group filter can be applied here too.
              const group = assignment._embedded?.group;
              if (!group || typeof group.id !== 'string' || !nameMatches(group.profile?.name, scope.group_filter)) continue;
              entities.push(groupEntity(group, 'groups'));
              relationships.push({ kind: 'entitlement_grants_resource', from: { kind: 'Entitlement', source_id: group.id }, to: { kind: 'Resource', source_id: app.id } });
            }
            return { entities, relationships };
          },
        });
      }
      return failed(unexpectedAnswer(PROVIDER, `no track named ${track}`));
    } catch (error) {
      // The step's own deadline aborts a wait or a request: the engine discards this outcome.
      const name = error instanceof Error ? error.name : typeof error;
      return failed(unexpectedAnswer(PROVIDER, `discovery stopped on ${name}`));
    }
  },
};
