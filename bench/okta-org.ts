/**
 * A large Okta org for the discovery bench, the same every time (a seeded generator): users,
 * groups with memberships drawn per user, applications with assigned groups. Also counts the
 * requests a complete read needs at Okta's page maxima, per rate-limit bucket: the floor.
 */
import { buildOrg, oktaApp, oktaGroup, oktaUser, type FakeOktaOrg } from '../infra/local/stand-ins/okta';

export interface OrgShape {
  users: number;
  groups: number;
  apps: number;
  /** Memberships per user (each user joins this many distinct groups). */
  groupsPerUser: number;
  /** Groups assigned to each app. */
  groupsPerApp: number;
}

/** Okta's page maxima, as the connector asks for them. */
const PAGE = { users: 200, groups: 200, members: 1000, apps: 200, appGroups: 200 };

/** mulberry32: a tiny seeded PRNG, so the org is the same in every run of the bench. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateOrg(shape: OrgShape, seed = 7): FakeOktaOrg {
  const next = random(seed);
  const users = Array.from({ length: shape.users }, (_, i) => oktaUser(i + 1, { login: `user${i + 1}@bench.example`, firstName: `First${i % 997}`, lastName: `Last${i % 1009}` }));
  const groups = Array.from({ length: shape.groups }, (_, i) => oktaGroup(i + 1, `group-${String(i + 1).padStart(5, '0')}`));
  const members: Record<string, string[]> = Object.fromEntries(groups.map((g) => [g.id, []]));
  for (const user of users) {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(shape.groupsPerUser, shape.groups)) chosen.add(Math.floor(next() * shape.groups));
    for (const index of chosen) members[groups[index]!.id]!.push(user.id);
  }
  const apps = Array.from({ length: shape.apps }, (_, i) => oktaApp(i + 1));
  const appGroups: Record<string, string[]> = {};
  for (const app of apps) {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(shape.groupsPerApp, shape.groups)) chosen.add(Math.floor(next() * shape.groups));
    appGroups[app.id] = [...chosen].map((i) => groups[i]!.id);
  }
  return buildOrg({ users, groups, members, apps, appGroups });
}

/** Requests a complete read makes per Okta rate-limit bucket (every list paged at its maximum). */
export function requestsNeeded(org: FakeOktaOrg): { users: number; groups: number; apps: number } {
  const pages = (n: number, size: number) => Math.max(1, Math.ceil(n / size));
  const members = org.groups.reduce((n, g) => n + pages(org.members.get(g.id)?.length ?? 0, PAGE.members), 0);
  const appGroups = org.apps.reduce((n, a) => n + pages(org.appGroups.get(a.id)?.length ?? 0, PAGE.appGroups), 0);
  return { users: pages(org.users.length, PAGE.users), groups: pages(org.groups.length, PAGE.groups) + members, apps: pages(org.apps.length, PAGE.apps) + appGroups };
}

/** What a complete run must find. */
export function expectedInventory(org: FakeOktaOrg): { entities: Record<string, number>; relationships: Record<string, number> } {
  const memberships = [...org.members.values()].reduce((n, m) => n + m.length, 0);
  const grants = [...org.appGroups.values()].reduce((n, g) => n + g.length, 0);
  const emails = new Set(org.users.map((u) => u.profile.email.toLowerCase()));
  return {
    entities: { Account: org.users.length, Principal: emails.size, Entitlement: org.groups.length, Resource: org.apps.length },
    relationships: { principal_represents_account: org.users.length, account_assigned_entitlement: memberships, entitlement_grants_resource: grants },
  };
}
