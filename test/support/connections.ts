/**
 * Connections as the API and console tests make them: over HTTP (201 expected, the answer shown
 * when not), with a daily schedule and an empty scope unless the body says otherwise; and the
 * Acme org the access-graph tests share (three people, two groups, two apps).
 */
import { expect } from 'vitest';
import { buildOrg, oktaApp, oktaGroup, oktaUser } from '../../infra/local/stand-ins/okta';
import type { HttpClient } from './http-client';

export const DAILY_SCHEDULE = { type: 'daily', hour: 3, minute: 0 } as const;

/** The connection's id. */
export async function createConnection(http: HttpClient, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await http.request('POST', '/v1/connections', { token, body: { scope: {}, schedule: DAILY_SCHEDULE, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { connection_id: string }).connection_id;
}

/** An Okta connection's body: the fake Okta's org (the tests' default) and a token. */
export const oktaConnectionBody = (name: string, apiToken: string, orgUrl = 'https://tessera-test.okta.com') => ({
  integration_id: 'int_okta_discovery',
  name,
  configuration: { org_url: orgUrl, api_token: apiToken },
});

export const acme = {
  alice: oktaUser(1, { login: 'alice@acme.test', email: 'ALICE@Example.com', firstName: 'Alice' }),
  bob: oktaUser(2, { login: 'bob@acme.test', email: 'bob@example.com' }),
  carol: oktaUser(3, { login: 'carol@acme.test', email: 'Carol@example.com' }),
  payrollUsers: oktaGroup(1, 'Payroll users'),
  admins: oktaGroup(2, 'Admins'),
  payroll: oktaApp(1, 'Payroll'),
  adminConsole: oktaApp(2, 'Admin Console'),
};

/** The Acme org with these group memberships (group id → user ids); Payroll is Payroll users', Admin Console the Admins'. */
export const acmeOrg = (members: Record<string, string[]>) =>
  buildOrg({
    users: [acme.alice, acme.bob, acme.carol],
    groups: [acme.payrollUsers, acme.admins],
    members,
    apps: [acme.payroll, acme.adminConsole],
    appGroups: { [acme.payroll.id]: [acme.payrollUsers.id], [acme.adminConsole.id]: [acme.admins.id] },
  });
