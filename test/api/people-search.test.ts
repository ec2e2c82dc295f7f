/**
 * `GET /v1/people?q=` merges the name matches (a range of GSI1 over display names) with the
 * people found by email alone (their email entries, ordered by display name too), in
 * display-name order as API.md ("Access graph") says; the design in docs/design.md. No connector
 * names Principals other than by email today, so the people here come from Principals written to
 * an inventory and a change list applied by the run's own upkeep: a person found by name and
 * email shows once, a person found by email alone takes its display name's place, pages of one
 * give the same list, the list without `q` holds people only, and an email entry goes with its
 * person.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyPeopleChanges } from '../../shared/access/people-upkeep';
import { keys } from '../../shared/store/keys';
import type { ChangeEntry } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { listAll } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

interface PersonBody {
  person_id: string;
  display_name: string;
  emails: string[];
  connections: string[];
}

let host: TestHost;
let http: HttpClient;
let token = '';
const clock = new MovableClock();
const connectionId = `conn_${'1'.repeat(26)}`;
let scope = { tenantId: '', workspaceId: '', connectionId };

const principals = [
  { id: `ent_${'A'.repeat(26)}`, name: 'Zed Person', email: 'zed@example.com' },
  { id: `ent_${'B'.repeat(26)}`, name: 'Amy Zed', email: 'zed.amy@example.com' },
  { id: `ent_${'C'.repeat(26)}`, name: 'zed@other.test', email: 'zed@other.test' },
  { id: `ent_${'D'.repeat(26)}`, name: 'Bob', email: 'bob@example.com' },
  // For a search by "ka" a page at a time: email entries of "k" that do not match come first in name order.
  { id: `ent_${'E'.repeat(26)}`, name: 'Aaron', email: 'kx1@example.com' },
  { id: `ent_${'F'.repeat(26)}`, name: 'Abby', email: 'kx2@example.com' },
  { id: `ent_${'G'.repeat(26)}`, name: 'Ben', email: 'kab@example.com' },
  { id: `ent_${'H'.repeat(26)}`, name: 'Kate Z', email: 'kate@example.com' },
];
const names = (people: PersonBody[]) => people.map((p) => p.display_name);
const search = (q: string, pageSize?: number) => listAll<PersonBody>(http, token, `/v1/people?q=${encodeURIComponent(q)}`, 'people', pageSize);

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
  scope = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, connectionId };
  for (const p of principals) {
    const key = keys.inventoryEntity(scope.tenantId, scope.workspaceId, connectionId, 'Principal', p.id);
    await host.deps.table.put({ Item: { ...key, entity_id: p.id, kind: 'Principal', source_id: p.email, display_name: p.name, attributes: { email: p.email } } });
  }
  const added: ChangeEntry[] = principals.map((p) => ['added', 'Principal', p.id, p.email]);
  await applyPeopleChanges(host.deps, scope, 'run_1', 0, added);
});
afterAll(async () => {
  await host?.close();
});

it('finds people by a prefix of their name or email, each once, in display-name order, page by page alike', async () => {
  // Amy Zed by her email (zed.amy@…) alone, Zed Person by name and email (once), zed@other.test by name.
  expect(names(await search('zed'))).toEqual(['Amy Zed', 'Zed Person', 'zed@other.test']);
  expect(names(await search('ZED', 1))).toEqual(['Amy Zed', 'Zed Person', 'zed@other.test']);
  expect(names(await search('zed', 2))).toEqual(['Amy Zed', 'Zed Person', 'zed@other.test']);
  expect(names(await search('bob@'))).toEqual(['Bob']);
  expect(await search('nobody')).toEqual([]);
  // A page's email matches are read only so far: Ben (by email) is not skipped for Kate (by name), whose name sorts later.
  expect(names(await search('ka', 1))).toEqual(['Ben', 'Kate Z']);
  expect(names(await search('ka'))).toEqual(['Ben', 'Kate Z']);
  expect(names(await search('zed@'))).toEqual(['Zed Person', 'zed@other.test']);
  expect(names(await search('amy'))).toEqual(['Amy Zed']);
  expect((await search('zed@example'))[0]).toMatchObject({ display_name: 'Zed Person', emails: ['zed@example.com'], connections: [connectionId] });
  // Without q: the people, by display name, no email entry among them.
  const all = await listAll<PersonBody>(http, token, '/v1/people', 'people', 1);
  expect(names(all)).toEqual(['Aaron', 'Abby', 'Amy Zed', 'Ben', 'Bob', 'Kate Z', 'Zed Person', 'zed@other.test']);
});

it('an email entry goes with its person', async () => {
  const removed: ChangeEntry[] = [['removed', 'Principal', principals[0]!.id, principals[0]!.email]];
  await applyPeopleChanges(host.deps, scope, 'run_2', 0, removed);
  expect(names(await search('zed@'))).toEqual(['zed@other.test']);
  expect(names(await search('zed', 1))).toEqual(['Amy Zed', 'zed@other.test']);
  expect(names(await listAll<PersonBody>(http, token, '/v1/people', 'people'))).toEqual(['Aaron', 'Abby', 'Amy Zed', 'Ben', 'Bob', 'Kate Z', 'zed@other.test']);
});
