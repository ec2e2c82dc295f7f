/**
 * Exports over HTTP on DynamoDB Local (API.md "Access graph", Exports): every source in both
 * formats, each file row for row the list it exports (NDJSON: the items themselves; CSV: RFC
 * 4180 read back by an independent reader, with a header row, quoting and the formula guard);
 * an export is a job the local host runs from the run queue and serves from the data directory.
 * Only its creator reads it (another user of the workspace, another workspace, another tenant:
 * 404); a viewer exports what it reads; a token without the source's permission is refused; bad
 * input is a 400 that writes nothing; the request is audited; an export expires after a day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys';
import { csvObjects, parseCsv } from '../support/csv';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { listAll, runToEnd, type EntityBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';

interface ExportBody {
  export_id: string;
  source: string;
  format: string;
  filters: Record<string, string>;
  status: string;
  rows: number;
  created_at: string;
  finished_at: string | null;
  expires_at: string;
  error: string | null;
}

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
const tokens = { admin: '', viewer: '', colleague: '', otherWorkspace: '', otherTenant: '' };
let tenant: TestTenant;
let connectionId = '';
let otherConnectionId = '';
/** While set, the queue loses every export job (as a crashed delivery would): exports stay queued. */
let holdingExports = false;

// Provider data a spreadsheet would misread: a formula, commas, quotes and a line break.
const FORMULA_GROUP = '=HYPERLINK("http://evil.example","Payroll, users")';
const MULTILINE_APP = 'Payroll\n"the app", v2';
const alice = oktaUser(1, { login: 'alice@acme.test', email: 'alice@example.com', firstName: 'Alice' });
const bob = oktaUser(2, { login: 'bob@acme.test', email: 'bob@example.com' });
const payrollUsers = oktaGroup(1, FORMULA_GROUP);
const admins = oktaGroup(2, '+Admins');
const payroll = oktaApp(1, MULTILINE_APP);
const adminConsole = oktaApp(2, 'Admin Console');
const org = (members: Record<string, string[]>) =>
  buildOrg({ users: [alice, bob], groups: [payrollUsers, admins], members, apps: [payroll, adminConsole], appGroups: { [payroll.id]: [payrollUsers.id], [adminConsole.id]: [admins.id] } });

const createConnection = (token: string) => createConnectionOver(http, token, oktaConnectionBody('okta', oktaToken, 'https://acme.okta.com'));

const ask = (body: Record<string, unknown>, token = tokens.admin) => http.request('POST', '/v1/exports', { token, body });

/** Asks for an export, lets the queue run it, and reads its record and its file. */
async function exportOf(body: Record<string, unknown>, token = tokens.admin): Promise<{ record: ExportBody; file: HttpResponse }> {
  const asked = await ask(body, token);
  expect(asked.status, asked.text).toBe(202);
  const { export_id, status } = asked.body as { export_id: string; status: string };
  expect(status).toBe('queued');
  expect(asked.headers.location).toBe(`${host.url}/v1/exports/${export_id}`);
  await host.runQueue.idle();
  const read = await http.request('GET', `/v1/exports/${export_id}`, { token });
  expect(read.status, read.text).toBe(200);
  const record = read.body as ExportBody;
  expect(record, JSON.stringify(record)).toMatchObject({ export_id, status: 'succeeded', error: null, source: body.source, format: body.format });
  const file = await http.request('GET', `/v1/exports/${export_id}/content`, { token });
  expect(file.status, file.text).toBe(200);
  const extension = body.format === 'csv' ? 'csv' : 'ndjson';
  expect(file.headers['content-type']).toBe(body.format === 'csv' ? 'text/csv; charset=utf-8; header=present' : 'application/x-ndjson');
  expect(file.headers['content-disposition']).toBe(`attachment; filename="tessera-${String(body.source).replaceAll('_', '-')}-${export_id}.${extension}"`);
  return { record, file };
}

const ndjsonItems = (text: string): unknown[] => {
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
};

/** What the CSV writer promises for a text cell: a leading `'` before what a spreadsheet would take for a formula. */
const guarded = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

async function exportItemsCount(): Promise<number> {
  const page = await host.deps.table.queryRaw({ PK: keys.export(tenant.tenantId, tenant.workspaceId, 'x').PK, SKPrefix: 'EXP#' });
  return page.items.length;
}

const auditEvents = () => listAll<{ action: string; target_id: string; payload: Record<string, unknown>; actor_id: string }>(http, tokens.admin, '/v1/audit-events', 'audit_events');

beforeAll(async () => {
  okta = await startFakeOkta({ org: org({ [payrollUsers.id]: [alice.id, bob.id], [admins.id]: [alice.id] }) });
  host = await startTestHost({
    clock,
    // Pages of two: every source's export crosses many pages of its list.
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_EXPORT_PAGE_SIZE: '2' },
    runQueue: { beforeDelivery: (message) => (message.type === 'export' && holdingExports ? 'drop' : 'deliver') },
  });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tokens.admin = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, tokens.admin, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  tokens.viewer = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  await createUser(http, tokens.admin, { email: `colleague@${tenant.domain}`, role: 'admin' });
  tokens.colleague = (await login(http, clock, `colleague@${tenant.domain}`)).accessToken;
  const other = await http.request('POST', '/v1/workspaces', { token: tokens.admin, body: { name: 'globex' } });
  expect(other.status).toBe(201);
  await createUser(http, tokens.admin, { email: `other@${tenant.domain}`, role: 'admin', workspace_id: (other.body as { id: string }).id });
  tokens.otherWorkspace = (await login(http, clock, `other@${tenant.domain}`)).accessToken;
  const otherTenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tokens.otherTenant = (await login(http, clock, otherTenant.admin.email)).accessToken;

  connectionId = await createConnection(tokens.admin);
  otherConnectionId = await createConnection(tokens.otherWorkspace);
  expect((await runToEnd(http, host, tokens.admin, connectionId)).status).toBe('succeeded');
  expect((await runToEnd(http, host, tokens.otherWorkspace, otherConnectionId)).status).toBe('succeeded');
  // A second run in which bob leaves Payroll users and joins Admins: access changes to export.
  okta.state.org = org({ [payrollUsers.id]: [alice.id], [admins.id]: [alice.id, bob.id] });
  expect((await runToEnd(http, host, tokens.admin, connectionId)).status).toBe('succeeded');
}, 120_000);
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

describe('each source, row for row the list it exports', () => {
  it('entities: NDJSON is the list\'s items; CSV has the header of the item\'s fields and one row per item, quoted and guarded', async () => {
    const entities = await listAll<EntityBody>(http, tokens.admin, `/v1/connections/${connectionId}/entities`, 'entities');
    expect(entities.length).toBeGreaterThan(5);
    const ndjson = await exportOf({ source: 'entities', format: 'ndjson', connection_id: connectionId });
    expect(ndjsonItems(ndjson.file.text)).toEqual(entities);
    expect(ndjson.record.rows).toBe(entities.length);

    const csv = await exportOf({ source: 'entities', format: 'csv', connection_id: connectionId });
    expect(csv.record.rows).toBe(entities.length);
    const { header, rows } = csvObjects(csv.file.text);
    expect(header).toEqual(['entity_id', 'kind', 'source_id', 'display_name', 'attributes', 'first_seen_at', 'last_seen_at']);
    expect(rows).toEqual(
      entities.map((e) => ({ entity_id: e.entity_id, kind: e.kind, source_id: e.source_id, display_name: guarded(e.display_name), attributes: JSON.stringify(e.attributes), first_seen_at: e.first_seen_at, last_seen_at: e.last_seen_at })),
    );
    // The provider's formula never reaches a spreadsheet as one; the app's line break and quotes are quoted, not split.
    expect(rows.map((r) => r.display_name)).toContain(`'${FORMULA_GROUP}`);
    expect(rows.map((r) => r.display_name)).toContain("'+Admins");
    expect(rows.map((r) => r.display_name)).toContain(MULTILINE_APP);
    expect(csv.file.text).toContain('"Payroll\n""the app"", v2"');
  });

  it('relationships, in both formats', async () => {
    const relationships = await listAll<Record<string, unknown>>(http, tokens.admin, `/v1/connections/${connectionId}/relationships`, 'relationships');
    expect(relationships.length).toBeGreaterThan(3);
    const ndjson = await exportOf({ source: 'relationships', format: 'ndjson', connection_id: connectionId });
    expect(ndjsonItems(ndjson.file.text)).toEqual(relationships);
    const csv = await exportOf({ source: 'relationships', format: 'csv', connection_id: connectionId });
    const { header, rows } = csvObjects(csv.file.text);
    // Nested objects (the ends' refs) spread into dotted columns; every cell as the writer promises.
    const flat = (value: Record<string, unknown>, prefix = ''): [string, string][] =>
      Object.entries(value).flatMap(([k, v]): [string, string][] =>
        v !== null && typeof v === 'object' && !Array.isArray(v) ? flat(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, typeof v === 'string' ? guarded(v) : v === null ? '' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)]],
      );
    expect(header).toEqual(flat(relationships[0]!).map(([k]) => k));
    expect(rows).toEqual(relationships.map((r) => Object.fromEntries(flat(r))));
    expect(csv.record.rows).toBe(relationships.length);
  });

  it('people, in both formats (lists as JSON cells)', async () => {
    const people = await listAll<{ person_id: string; display_name: string; emails: string[]; accounts: number; connections: string[] }>(http, tokens.admin, '/v1/people', 'people');
    expect(people.length).toBeGreaterThan(1);
    const ndjson = await exportOf({ source: 'people', format: 'ndjson' });
    expect(ndjsonItems(ndjson.file.text)).toEqual(people);
    const csv = await exportOf({ source: 'people', format: 'csv' });
    const { header, rows } = csvObjects(csv.file.text);
    expect(header).toEqual(['person_id', 'display_name', 'emails', 'accounts', 'connections']);
    expect(rows).toEqual(people.map((p) => ({ person_id: p.person_id, display_name: guarded(p.display_name), emails: JSON.stringify(p.emails), accounts: String(p.accounts), connections: JSON.stringify(p.connections) })));
    expect(csv.record.rows).toBe(people.length);
  });

  it('access: one person\'s, every person\'s (each item with its person), and who reaches an entity', async () => {
    const people = await listAll<{ person_id: string; display_name: string }>(http, tokens.admin, '/v1/people', 'people');
    const aliceId = people.find((p) => p.display_name === 'alice@example.com')!.person_id;
    const accessOf = (personId: string) => listAll<Record<string, unknown>>(http, tokens.admin, `/v1/people/${personId}/access`, 'access');
    const alicesAccess = await accessOf(aliceId);
    expect(alicesAccess.length).toBeGreaterThan(1);
    const one = await exportOf({ source: 'access', format: 'ndjson', person_id: aliceId });
    expect(ndjsonItems(one.file.text)).toEqual(alicesAccess.map((item) => ({ person: { person_id: aliceId, display_name: 'alice@example.com' }, ...item })));
    // The export's answer names what its filters point at.
    expect(one.record.filters).toEqual({ person_id: aliceId, person_display_name: 'alice@example.com' });

    const everyone = (await Promise.all(people.map(async (p) => (await accessOf(p.person_id)).map((item) => ({ person: { person_id: p.person_id, display_name: p.display_name }, ...(item as { target: { entity_id: string }; paths: unknown }) }))))).flat();
    expect(everyone.length).toBeGreaterThan(alicesAccess.length);
    const all = await exportOf({ source: 'access', format: 'ndjson' });
    expect(ndjsonItems(all.file.text)).toEqual(everyone);
    const csv = await exportOf({ source: 'access', format: 'csv' });
    const { header, rows } = csvObjects(csv.file.text);
    expect(header).toEqual(['person.person_id', 'person.display_name', 'connection_id', 'target.entity_id', 'target.kind', 'target.source_id', 'target.display_name', 'paths']);
    expect(rows.map((r) => [r['person.person_id'], r['target.entity_id'], JSON.parse(r.paths!) as unknown])).toEqual(everyone.map((e) => [e.person.person_id, e.target.entity_id, e.paths]));
    expect(csv.record.rows).toBe(everyone.length);

    const entities = await listAll<EntityBody>(http, tokens.admin, `/v1/connections/${connectionId}/entities`, 'entities');
    const app = entities.find((e) => e.display_name === 'Admin Console')!;
    const holders = await listAll<Record<string, unknown>>(http, tokens.admin, `/v1/connections/${connectionId}/entities/${app.entity_id}/access`, 'access');
    expect(holders.length).toBeGreaterThan(0);
    const reverse = await exportOf({ source: 'access', format: 'ndjson', connection_id: connectionId, entity_id: app.entity_id });
    expect(ndjsonItems(reverse.file.text)).toEqual(holders);
    expect(reverse.record.filters).toEqual({ connection_id: connectionId, connection_name: 'okta', entity_id: app.entity_id, entity_display_name: 'Admin Console' });
  });

  it('access changes, whole and within since/until, in both formats', async () => {
    const changes = await listAll<{ at: string }>(http, tokens.admin, '/v1/access-changes', 'access_changes');
    expect(changes.length).toBeGreaterThan(0);
    const ndjson = await exportOf({ source: 'access_changes', format: 'ndjson' });
    expect(ndjsonItems(ndjson.file.text)).toEqual(changes);
    const at = changes[0]!.at;
    const none = await exportOf({ source: 'access_changes', format: 'csv', until: at });
    expect(none.record.rows).toBe(0);
    expect(parseCsv(none.file.text)).toHaveLength(1); // the header alone
    const csv = await exportOf({ source: 'access_changes', format: 'csv', since: at, connection_id: connectionId });
    expect(csvObjects(csv.file.text).rows.map((r) => r.at)).toEqual(changes.map((c) => c.at));
  });

  it('audit events, and the export requests are audited (who, what, which filters)', async () => {
    const ndjson = await exportOf({ source: 'audit_events', format: 'ndjson' });
    const events = await auditEvents();
    expect(ndjsonItems(ndjson.file.text)).toEqual(events);
    expect(events[0]).toMatchObject({ action: 'export_requested', target_id: ndjson.record.export_id, actor_id: tenant.admin.id, payload: { source: 'audit_events', format: 'ndjson' } });
    expect(events.some((e) => e.action === 'export_requested' && e.payload.source === 'entities' && e.payload.connection_id === connectionId)).toBe(true);
    const windowed = await exportOf({ source: 'audit_events', format: 'csv', until: ndjson.record.created_at });
    const { rows } = csvObjects(windowed.file.text);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.created_at! < ndjson.record.created_at)).toBe(true);
    expect(rows.length).toBe(events.filter((e) => (e as unknown as { created_at: string }).created_at < ndjson.record.created_at).length);
  });
});

describe('who may read an export', () => {
  let mine: ExportBody;
  beforeAll(async () => {
    mine = (await exportOf({ source: 'people', format: 'csv' })).record;
  });

  it('nobody but its creator: another user of the workspace, another workspace, another tenant get 404', async () => {
    for (const token of [tokens.colleague, tokens.viewer, tokens.otherWorkspace, tokens.otherTenant]) {
      for (const path of [`/v1/exports/${mine.export_id}`, `/v1/exports/${mine.export_id}/content`]) {
        const res = await http.request('GET', path, { token });
        expect(res.status, `${path}: ${res.text}`).toBe(404);
        expect(res.text).not.toContain('person_id');
      }
    }
  });

  it('a viewer exports what it reads, and reads its own export', async () => {
    const { record, file } = await exportOf({ source: 'entities', format: 'csv', connection_id: connectionId }, tokens.viewer);
    expect(record.rows).toBeGreaterThan(0);
    expect(parseCsv(file.text)).toHaveLength(record.rows + 1);
    expect((await exportOf({ source: 'audit_events', format: 'ndjson' }, tokens.viewer)).record.rows).toBeGreaterThan(0);
    // Not the admin's either.
    expect((await http.request('GET', `/v1/exports/${record.export_id}`, { token: tokens.admin })).status).toBe(404);
  });

  it('another workspace\'s connection is not found (404) and nothing is written', async () => {
    const before = await exportItemsCount();
    const res = await ask({ source: 'entities', format: 'csv', connection_id: otherConnectionId });
    expect(res.status, res.text).toBe(404);
    expect(await exportItemsCount()).toBe(before);
  });

  it('a token without the source\'s permission is refused (403), asking and reading', async () => {
    const pat = await http.request('POST', '/v1/tokens', { token: tokens.admin, body: { name: 'inventory reader', scopes: ['connections:read'] } });
    expect(pat.status, pat.text).toBe(201);
    const patToken = (pat.body as { token: string }).token;
    const before = await exportItemsCount();
    const refused = await ask({ source: 'audit_events', format: 'csv' }, patToken);
    expect(refused.status, refused.text).toBe(403);
    expect(await exportItemsCount()).toBe(before);
    // The same user's export of audit events, read with that token.
    const audit = (await exportOf({ source: 'audit_events', format: 'csv' })).record;
    for (const path of [`/v1/exports/${audit.export_id}`, `/v1/exports/${audit.export_id}/content`]) expect((await http.request('GET', path, { token: patToken })).status).toBe(403);
    // What it may read, it exports.
    expect((await exportOf({ source: 'people', format: 'ndjson' }, patToken)).record.rows).toBeGreaterThan(0);
  });
});

describe('refusals', () => {
  it('bad input is a 400 naming the field, and writes nothing (no export, no audit event)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ source: 'users', format: 'csv' }, 'source'],
      [{ source: 'people', format: 'xlsx' }, 'format'],
      [{ format: 'csv' }, 'source'],
      [{ source: 'entities', format: 'csv' }, 'connection_id'],
      [{ source: 'relationships', format: 'ndjson' }, 'connection_id'],
      [{ source: 'people', format: 'csv', person_id: 'per_0123456789abcdefghjkmnpqrs' }, 'person_id'],
      [{ source: 'entities', format: 'csv', connection_id: connectionId, since: '2026-01-01T00:00:00Z' }, 'since'],
      [{ source: 'audit_events', format: 'csv', connection_id: connectionId }, 'connection_id'],
      [{ source: 'access', format: 'csv', entity_id: 'ent_0123456789abcdefghjkmnpqrs' }, 'connection_id'],
      [{ source: 'access_changes', format: 'csv', since: '2026-02-01T00:00:00Z', until: '2026-01-01T00:00:00Z' }, 'until'],
      [{ source: 'access_changes', format: 'csv', since: 'yesterday' }, 'since'],
      [{ source: 'entities', format: 'csv', connection_id: 'not-an-id' }, 'connection_id'],
      [{ source: 'people', format: 'csv', columns: ['a'] }, 'columns'],
    ];
    const exportsBefore = await exportItemsCount();
    const eventsBefore = (await auditEvents()).length;
    for (const [body, field] of cases) {
      const res = await ask(body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify((res.body as { errors?: unknown }).errors), JSON.stringify(body)).toContain(field);
    }
    expect(await exportItemsCount()).toBe(exportsBefore);
    expect((await auditEvents()).length).toBe(eventsBefore);
  });

  it('a person or entity that does not exist is 404 and writes nothing', async () => {
    const before = await exportItemsCount();
    expect((await ask({ source: 'access', format: 'csv', person_id: 'per_0123456789abcdefghjkmnpqrs' })).status).toBe(404);
    expect((await ask({ source: 'access', format: 'csv', connection_id: connectionId, entity_id: 'ent_0123456789abcdefghjkmnpqrs' })).status).toBe(404);
    expect(await exportItemsCount()).toBe(before);
  });

  it('the file of an export that has not run yet is a 409; an unknown id is 404', async () => {
    holdingExports = true;
    const asked = await ask({ source: 'people', format: 'csv' }).finally(() => host.runQueue.idle());
    holdingExports = false;
    expect(asked.status).toBe(202);
    const id = (asked.body as { export_id: string }).export_id;
    expect((await http.request('GET', `/v1/exports/${id}`, { token: tokens.admin })).body).toMatchObject({ status: 'queued', rows: 0, finished_at: null });
    const early = await http.request('GET', `/v1/exports/${id}/content`, { token: tokens.admin });
    expect(early.status, early.text).toBe(409);
    expect((await http.request('GET', '/v1/exports/exp_0123456789abcdefghjkmnpqrs', { token: tokens.admin })).status).toBe(404);
  });
});

describe('expiry', () => {
  it('an export and its file are gone a day after it was asked for', async () => {
    const { record } = await exportOf({ source: 'people', format: 'ndjson' });
    expect(Date.parse(record.expires_at) - Date.parse(record.created_at)).toBe(24 * 3600 * 1000);
    clock.advance(24 * 3600 + 60);
    const token = (await login(http, clock, tenant.admin.email)).accessToken;
    expect((await http.request('GET', `/v1/exports/${record.export_id}`, { token })).status).toBe(404);
    expect((await http.request('GET', `/v1/exports/${record.export_id}/content`, { token })).status).toBe(404);
  });
});
