/**
 * The Okta discovery reader page by page against the local Okta org (and, for answers that org
 * never gives, a bare loopback server): objects with fields Okta leaves out, the org URL used
 * when no endpoint is overridden, next links to another host, a path that is not an org, a group
 * deleted or a scope withdrawn between pages, answers without rate-limit headers, a 429 without
 * a reset, server errors, bodies that are not lists, and a read stopped by its step's deadline.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DiscoveryContext, PageOutcome, ProviderPacer, TrackCursor } from '../../shared/connectors/discovery';
import type { OktaConfiguration, OktaScope } from '../../shared/connectors/okta/integration';
import { oktaDiscovery } from '../../shared/connectors/okta/discovery';
import { oktaApiScopes, missingScope, notAnOktaOrg } from '../../shared/connectors/okta/remediation';
import { unexpectedAnswer, unreachable } from '../../shared/connectors/outcome';
import { driveDiscovery, inventory, TestPacer } from '../support/discovery-driver';
import { json, startLocalServer, type LocalReply, type LocalServer } from '../../infra/local/stand-ins/local-server';
import { buildOrg, oktaApp, oktaGroup, oktaId, oktaToken, oktaUser, startFakeOkta, type FakeOkta, type OktaAppObject, type OktaGroupObject, type OktaUserObject } from '../../infra/local/stand-ins/okta';

let okta: FakeOkta;
/** Answers `replies[path]` as is (no rate-limit headers unless given); 404 for anything else. */
let bare: LocalServer;
let replies: Record<string, LocalReply> = {};

beforeAll(async () => {
  okta = await startFakeOkta();
  bare = await startLocalServer((request) => replies[request.url.pathname + request.url.search] ?? json(404, { errorCode: 'E0000007' }));
});
afterAll(async () => {
  await okta.close();
  await bare.close();
});
beforeEach(() => {
  okta.calls.length = 0;
  okta.state.scopes = new Set(oktaApiScopes.map((s) => s.scope));
  okta.state.hang = false;
  okta.state.maxPage = undefined;
  okta.state.org = buildOrg({ users: [], groups: [], members: {}, apps: [], appGroups: {} });
  replies = {};
});

const configuration = (org_url = okta.url): OktaConfiguration => ({ org_url, api_token: oktaToken });
const noFilter: OktaScope = {};

function contextFor(endpoints: Record<string, string> | undefined, options: { signal?: AbortSignal; pacer?: ProviderPacer } = {}): DiscoveryContext {
  return { signal: options.signal ?? AbortSignal.timeout(10_000), ...(endpoints ? { endpoints } : {}), pacer: options.pacer ?? new TestPacer(), session: new Map(), now: () => Date.now() };
}

const read = (track: string, cursor: TrackCursor | null, context: DiscoveryContext, scope: OktaScope = noFilter, config = configuration()): Promise<PageOutcome> =>
  oktaDiscovery.readPage({ configuration: config, scope }, track, cursor, context);

const failedWith = (message: string): PageOutcome => ({ kind: 'failed', remediation: [unexpectedAnswer('Okta', message)] });

/** Okta objects as a provider may send them, without the fields the fixtures always fill. */
const sparse = <T>(value: Record<string, unknown>) => value as unknown as T;

describe('Okta discovery: what the provider leaves out', () => {
  it('maps absent profile fields, names and statuses as null, and skips users without an id or an email', async () => {
    const bareUser = sparse<OktaUserObject>({ id: oktaId('00u', 2) });
    const blankEmail = oktaUser(3, { email: '   ' });
    const noId = sparse<OktaUserObject>({ id: 7, profile: { login: 'ghost@example.test', email: 'ghost@example.test' } });
    const bareGroup = sparse<OktaGroupObject>({ id: oktaId('00g', 2) });
    const bareApp = sparse<OktaAppObject>({ id: oktaId('0oa', 2) });
    okta.state.org = buildOrg({
      users: [oktaUser(1), bareUser, blankEmail, noId],
      groups: [oktaGroup(1), bareGroup],
      members: { [oktaId('00g', 2)]: [oktaId('00u', 2)] },
      apps: [oktaApp(1), bareApp],
      appGroups: { [oktaId('0oa', 2)]: [oktaId('00g', 2)] },
    });
    const run = await driveDiscovery(oktaDiscovery, { configuration: configuration(), scope: noFilter }, { endpoints: { okta: okta.url } });
    expect(Object.values(run.tracks).map((t) => t.status)).toEqual(['complete', 'complete', 'complete']);
    const held = inventory(run);

    expect(held.get(`Account ${oktaId('00u', 2)}`)).toMatchObject({
      display_name: oktaId('00u', 2),
      attributes: { login: null, email: null, status: null, first_name: null, last_name: null },
    });
    // A blank email names no person; an object without a string id is not an account.
    expect(held.get(`Account ${oktaId('00u', 3)}`)?.attributes.email).toBe('   ');
    expect([...held.keys()].filter((key) => key.startsWith('Principal '))).toEqual(['Principal user1@example.test']);
    expect([...held.values()].some((e) => e.source_id === '7' || e.display_name === 'ghost@example.test')).toBe(false);

    expect(held.get(`Entitlement ${oktaId('00g', 2)}`)).toMatchObject({ display_name: oktaId('00g', 2), attributes: { name: null, description: null, type: null } });
    expect(held.get(`Resource ${oktaId('0oa', 2)}`)).toMatchObject({ display_name: oktaId('0oa', 2), attributes: { name: null, label: null, status: null, sign_on_mode: null } });
    // The member without a profile and the app assigned the nameless group are still related.
    expect(run.relationships.map((r) => `${r.kind} ${r.from.source_id} ${r.to.source_id}`)).toEqual(
      expect.arrayContaining([`account_assigned_entitlement ${oktaId('00u', 2)} ${oktaId('00g', 2)}`, `entitlement_grants_resource ${oktaId('00g', 2)} ${oktaId('0oa', 2)}`]),
    );
  });

  it('an app named only by its name is shown by it', async () => {
    okta.state.org = buildOrg({ users: [], groups: [], members: {}, apps: [sparse<OktaAppObject>({ id: oktaId('0oa', 5), name: 'app_5' })], appGroups: {} });
    const first = await read('apps', null, contextFor({ okta: okta.url }));
    expect(first).toMatchObject({ kind: 'page', entities: [{ kind: 'Resource', source_id: oktaId('0oa', 5), display_name: 'app_5' }] });
  });

  it('an empty group list ends the groups track on its first page', async () => {
    expect(await read('groups', null, contextFor({ okta: okta.url }))).toEqual({ kind: 'page', entities: [], relationships: [], next: null });
    expect(okta.calls.map((c) => c.path)).toEqual(['/api/v1/groups']);
  });
});

describe('Okta discovery: where requests go', () => {
  it('without an endpoint override, calls the configured org URL (trailing slash dropped) with the SSWS token', async () => {
    okta.state.org = buildOrg({ users: [oktaUser(1)], groups: [], members: {}, apps: [], appGroups: {} });
    const outcome = await read('users', null, contextFor(undefined), noFilter, configuration(`${okta.url}/`));
    expect(outcome).toMatchObject({ kind: 'page', next: null, entities: [{ kind: 'Account', source_id: oktaId('00u', 1) }, { kind: 'Principal', source_id: 'user1@example.test' }] });
    expect(okta.calls.map((c) => [c.path, c.authorization])).toEqual([['/api/v1/users', `SSWS ${oktaToken}`]]);
  });

  it('does not follow a next link to another origin than the org (the token would go with it)', async () => {
    okta.state.maxPage = 1;
    okta.state.org = buildOrg({ users: [oktaUser(1), oktaUser(2)], groups: [], members: {}, apps: [], appGroups: {} });
    // The org is configured as localhost; the fake writes its links on 127.0.0.1.
    const org = okta.url.replace('127.0.0.1', 'localhost');
    expect(await read('users', null, contextFor({ okta: org }))).toEqual(failedWith('a next-page link to another host'));
    expect(okta.calls).toHaveLength(1);
  });

  it('a URL that is not an Okta org (404 on the users list) fails with what to check', async () => {
    expect(await read('users', null, contextFor({ okta: `${okta.url}/not-an-org` }))).toEqual({ kind: 'failed', remediation: [notAnOktaOrg()] });
  });

  it('an org that does not answer before the step deadline is unreachable', async () => {
    okta.state.hang = true;
    expect(await read('users', null, contextFor({ okta: okta.url }, { signal: AbortSignal.timeout(200) }))).toEqual({ kind: 'failed', remediation: [unreachable('Okta', 'no answer in time')] });
  });

  it('an org whose port refuses connections is unreachable, with the socket code', async () => {
    const closed = await startLocalServer(() => json(200, []));
    const url = closed.url;
    await closed.close();
    expect(await read('users', null, contextFor({ okta: url }))).toEqual({ kind: 'failed', remediation: [unreachable('Okta', 'ECONNREFUSED')] });
  });

  it('a track it does not have fails', async () => {
    expect(await read('roles', null, contextFor({ okta: okta.url }))).toEqual(failedWith('no track named roles'));
    expect(okta.calls).toHaveLength(0);
  });
});

describe('Okta discovery: between pages', () => {
  it('a group deleted after its list page is skipped; a scope withdrawn before a member read refuses with that scope', async () => {
    okta.state.org = buildOrg({
      users: [oktaUser(1)],
      groups: [oktaGroup(1), oktaGroup(2)],
      members: { [oktaId('00g', 1)]: [oktaId('00u', 1)], [oktaId('00g', 2)]: [oktaId('00u', 1)] },
      apps: [],
      appGroups: {},
    });
    const context = contextFor({ okta: okta.url });
    const listed = await read('groups', null, context);
    expect(listed).toMatchObject({ kind: 'page', entities: [{ source_id: oktaId('00g', 1) }, { source_id: oktaId('00g', 2) }] });
    const cursor = JSON.parse(JSON.stringify((listed as { next: TrackCursor }).next)) as TrackCursor;

    okta.state.org = { ...okta.state.org, groups: [oktaGroup(2)] };
    const deleted = await read('groups', cursor, context);
    expect(deleted).toEqual({ kind: 'page', entities: [], relationships: [], next: expect.objectContaining({ index: 1 }) });

    okta.state.scopes.delete('okta.groups.read');
    const next = (deleted as { next: TrackCursor }).next;
    const groupsScope = oktaApiScopes.find((s) => s.scope === 'okta.groups.read')!;
    expect(await read('groups', next, context)).toEqual({ kind: 'refused', remediation: [missingScope(groupsScope)] });

    okta.state.scopes.add('okta.groups.read');
    expect(await read('groups', next, context)).toMatchObject({ kind: 'page', next: null, relationships: [{ kind: 'account_assigned_entitlement', from: { source_id: oktaId('00u', 1) }, to: { source_id: oktaId('00g', 2) } }] });
    expect(okta.calls.map((c) => [c.path, c.status])).toEqual([
      ['/api/v1/groups', 200],
      [`/api/v1/groups/${oktaId('00g', 1)}/users`, 404],
      [`/api/v1/groups/${oktaId('00g', 2)}/users`, 403],
      [`/api/v1/groups/${oktaId('00g', 2)}/users`, 200],
    ]);
  });

  it('a read stopped by the step deadline (an aborted wait) fails, whatever the abort reason is', async () => {
    // An AbortSignal's reason is whatever its controller was aborted with, an Error or not.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the reason is passed through as given
    const stoppedWith = (reason: unknown): ProviderPacer => ({ requests: 0, wait: () => Promise.reject(reason), observe: () => undefined });
    const abort = new DOMException('This operation was aborted', 'AbortError');
    expect(await read('users', null, contextFor({ okta: okta.url }, { pacer: stoppedWith(abort) }))).toEqual(failedWith('discovery stopped on AbortError'));
    expect(await read('users', null, contextFor({ okta: okta.url }, { pacer: stoppedWith('step deadline') }))).toEqual(failedWith('discovery stopped on string'));
    expect(okta.calls).toHaveLength(0);
  });
});

describe('Okta discovery: answers the org fake never gives', () => {
  it('an answer without rate-limit headers tells the pacer nothing, and a body that is not a list is an empty page', async () => {
    replies['/api/v1/users?limit=200'] = json(200, { users: [oktaUser(1)] });
    const pacer = new TestPacer();
    expect(await read('users', null, contextFor({ okta: bare.url }, { pacer }))).toEqual({ kind: 'page', entities: [], relationships: [], next: null });
    expect(pacer.observed).toEqual([{ bucket: 'users' }]);
  });

  it('a 429 without X-Rate-Limit-Reset asks to come back in a minute', async () => {
    replies['/api/v1/users?limit=200'] = json(429, { errorCode: 'E0000047' });
    const pacer = new TestPacer();
    const before = Date.now();
    const outcome = await read('users', null, contextFor({ okta: bare.url }, { pacer }));
    expect(outcome.kind).toBe('throttled');
    const retryAtMs = (outcome as { retryAtMs: number }).retryAtMs;
    expect(retryAtMs).toBeGreaterThanOrEqual(before + 60_000);
    expect(retryAtMs).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(pacer.observed.at(-1)).toEqual({ bucket: 'users', retryAtMs });
  });

  it('a server error fails with its status', async () => {
    replies['/api/v1/users?limit=200'] = json(500, { errorCode: 'E0000009', errorSummary: 'Internal Server Error' });
    expect(await read('users', null, contextFor({ okta: bare.url }))).toEqual(failedWith('HTTP 500'));
  });

  it('an app assignment without its embedded group, or with a group outside the filter or without a name, grants nothing', async () => {
    const app = oktaApp(1);
    const inFilter = oktaGroup(1, 'eng-core');
    replies['/api/v1/apps?limit=200'] = json(200, [app]);
    replies[`/api/v1/apps/${app.id}/groups?limit=200&expand=group`] = json(200, [
      { id: oktaId('00g', 9), priority: 0 },
      { id: oktaId('00g', 8), _embedded: { group: sparse<OktaGroupObject>({ id: oktaId('00g', 8) }) } },
      { id: oktaId('00g', 7), _embedded: { group: oktaGroup(7, 'sales') } },
      { id: inFilter.id, _embedded: { group: inFilter } },
    ]);
    const context = contextFor({ okta: bare.url });
    const listed = await read('apps', null, context, { group_filter: 'ENG-' });
    const expanded = await read('apps', (listed as { next: TrackCursor }).next, context, { group_filter: 'ENG-' });
    expect(expanded).toEqual({
      kind: 'page',
      entities: [{ kind: 'Entitlement', source_id: inFilter.id, display_name: 'eng-core', attributes: { name: 'eng-core', description: null, type: 'OKTA_GROUP' }, track: 'groups' }],
      relationships: [{ kind: 'entitlement_grants_resource', from: { kind: 'Entitlement', source_id: inFilter.id }, to: { kind: 'Resource', source_id: app.id } }],
      next: null,
    });
  });
});
