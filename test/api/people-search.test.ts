/**
 * `GET /v1/people?q=` is one range of GSI1 over display names and, where a Principal's email
 * differs from its name, email entries (API.md "Access graph"; the design in docs/design.md).
 * No connector names Principals other than by email today, so the people here come from Principals
 * written to an inventory and a change list applied by the run's own upkeep: a person found by
 * name and email shows once, a person found by email alone is found, paging over skipped
 * entries gives the same list, the list without `q` holds people only, and an email entry goes
 * with its person.
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

it('finds people by a prefix of their name or email, each once, in the order of what matched, page by page alike', async () => {
  // "zed person" (name), "zed.amy@…" (Amy's email), "zed@example.com" (Zed Person again: skipped), "zed@other.test".
  expect(names(await search('zed'))).toEqual(['Zed Person', 'Amy Zed', 'zed@other.test']);
  expect(names(await search('ZED', 1))).toEqual(['Zed Person', 'Amy Zed', 'zed@other.test']);
  expect(names(await search('zed@'))).toEqual(['Zed Person', 'zed@other.test']);
  expect(names(await search('amy'))).toEqual(['Amy Zed']);
  expect((await search('zed@example'))[0]).toMatchObject({ display_name: 'Zed Person', emails: ['zed@example.com'], connections: [connectionId] });
  // Without q: the people, by display name, no email entry among them.
  const all = await listAll<PersonBody>(http, token, '/v1/people', 'people', 1);
  expect(names(all)).toEqual(['Amy Zed', 'Bob', 'Zed Person', 'zed@other.test']);
});

it('an email entry goes with its person', async () => {
  const removed: ChangeEntry[] = [['removed', 'Principal', principals[0]!.id, principals[0]!.email]];
  await applyPeopleChanges(host.deps, scope, 'run_2', 0, removed);
  expect(names(await search('zed@'))).toEqual(['zed@other.test']);
  expect(names(await search('zed'))).toEqual(['Amy Zed', 'zed@other.test']);
  expect(names(await listAll<PersonBody>(http, token, '/v1/people', 'people'))).toEqual(['Amy Zed', 'Bob', 'zed@other.test']);
});
