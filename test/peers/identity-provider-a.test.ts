/**
 * The Okta connector (identity provider A) against a local Okta management API: success, the
 * exact scope or admin role that is missing, a rejected token, throttling with the reset time,
 * and a timeout.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findIntegration } from '../../shared/connectors/catalog';
import type { ConnectorTestResult } from '../../shared/connectors/connector';
import type { OktaConfiguration, OktaScope } from '../../shared/connectors/okta/integration';
import { buildOrg, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { connectorOf } from '../../shared/connectors/connector-registry';

const integration = findIntegration('int_okta_discovery')!;
// The schema only admits Okta-hosted https org URLs; the local server comes in through endpoints.okta.
const configuration: OktaConfiguration = { org_url: 'https://tessera-test.okta.com', api_token: oktaToken };

let okta: FakeOkta;
beforeAll(async () => {
  okta = await startFakeOkta();
});
afterAll(() => okta.close());
beforeEach(() => {
  okta.calls.length = 0;
  // An org always lists the user its API token acts for: an empty list is checked further (okta-token-rights.ts).
  okta.state.org = buildOrg({ users: [oktaUser(1)], groups: [], members: {}, apps: [], appGroups: {} });
  okta.state.scopes = new Set(['okta.users.read', 'okta.groups.read', 'okta.apps.read', 'okta.roles.read']);
  okta.state.throttleUntil = undefined;
  okta.state.hang = false;
});

async function runTest(config = configuration, scope: OktaScope = {}, timeoutMs = 5_000): Promise<ConnectorTestResult> {
  expect(integration.configurationSchema.safeParse(config).success).toBe(true);
  const result = await connectorOf(integration).test({ configuration: config, scope }, { signal: AbortSignal.timeout(timeoutMs), endpoints: { okta: okta.url } });
  expect(JSON.stringify(result)).not.toContain(config.api_token);
  return result;
}

describe('identity provider A (Okta) connector test', () => {
  it('succeeds with one SSWS-authenticated read per scope, the group filter applied', async () => {
    expect(await runTest(configuration, { group_filter: 'eng-' })).toEqual({ status: 'success', remediation: [] });
    expect(okta.calls.map((c) => c.path).sort()).toEqual(['/api/v1/apps', '/api/v1/groups', '/api/v1/iam/assignees/users', '/api/v1/users']);
    expect(okta.calls.every((c) => c.authorization === `SSWS ${oktaToken}` && c.query.get('limit') === '1')).toBe(true);
    expect(okta.calls.find((c) => c.path === '/api/v1/groups')?.query.get('q')).toBe('eng-');
  });

  it('names each refused scope and the admin role that grants it', async () => {
    okta.state.scopes.delete('okta.apps.read');
    okta.state.scopes.delete('okta.roles.read');
    expect(await runTest()).toEqual({
      status: 'failure',
      remediation: [
        {
          category: 'permissions',
          message: 'The API token may not use okta.apps.read.',
          action:
            "Assign the Read-Only Administrator role (READ_ONLY_ADMIN) to the admin who created the API token (Security > Administrators > Add administrator): an API token acts with its creator's admin permissions. " +
            'For an API service app, grant it the okta.apps.read scope instead (Applications > the app > Okta API Scopes > Grant). Without it discovery would miss applications and their assignments (Resource, entitlement_grants_resource).',
        },
        {
          category: 'permissions',
          message: 'The API token may not use okta.roles.read.',
          action:
            "Assign the Read-Only Administrator role (READ_ONLY_ADMIN) to the admin who created the API token (Security > Administrators > Add administrator): an API token acts with its creator's admin permissions. " +
            'For an API service app, grant it the okta.roles.read scope instead (Applications > the app > Okta API Scopes > Grant). Without it discovery would miss admin role assignments (who administers the org).',
        },
      ],
    });
  });

  it('reports a rejected token once, as credentials', async () => {
    expect(await runTest({ ...configuration, api_token: '00SomeOtherTokenThatOktaDoesNotKnow_999' })).toEqual({
      status: 'failure',
      remediation: [
        {
          category: 'credentials',
          message: 'Okta rejected the API token (E0000011): it is wrong, revoked, or expired (Okta expires tokens unused for 30 days).',
          action: expect.stringContaining('Create a new API token (Security > API > Tokens > Create token)'),
        },
      ],
    });
  });

  it('reports throttling with the time the rate limit resets', async () => {
    okta.state.throttleUntil = 1_800_000_000;
    expect((await runTest()).remediation).toEqual([
      expect.objectContaining({ category: 'throttling', message: 'Okta throttled the test (too many requests); the limit resets at 2027-01-15T08:00:00.000Z.' }),
    ]);
  });

  it('stops at the time limit', async () => {
    okta.state.hang = true;
    expect(await runTest(configuration, {}, 300)).toEqual({
      status: 'failure',
      remediation: [expect.objectContaining({ category: 'connectivity', message: expect.stringMatching(/^Okta did not answer within \d+(\.\d)? s\.$/) })],
    });
  });
});
