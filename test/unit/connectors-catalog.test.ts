/**
 * The catalog: its entries carry every field of the spec, stable unique ids and semver
 * versions; the published JSON Schemas are draft 2020-12, strict, with one valid example and
 * the secret fields marked writeOnly; the zod schemas behind them refuse what they should.
 */
import { describe, expect, it } from 'vitest';
import { findIntegration, integrations, integrationView, visibleIntegrations } from '../../shared/connectors/catalog';
import { connectorOf } from '../../shared/connectors/connector-registry';
import { awsExamples } from '../../shared/connectors/aws/integration';
import { azureExamples } from '../../shared/connectors/azure/integration';
import { oktaExamples } from '../../shared/connectors/okta/integration';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const SPEC_FIELDS = [
  'integration_id',
  'name',
  'connector_type',
  'provider_system',
  'connector_id',
  'version',
  'required_permissions',
  'emits_entities',
  'emits_relationships',
  'limits_blind_spots',
  'supports_test',
  'created_at',
  'updated_at',
];
const ENTITIES = ['Principal', 'Account', 'Entitlement', 'Resource', 'CloudAccountBoundary'];
const RELATIONSHIPS = ['principal_represents_account', 'account_assigned_entitlement', 'entitlement_grants_resource'];

/** Secret fields per integration: exactly these, and no others, are writeOnly. */
const SECRET_FIELDS: Record<string, string[]> = {
  int_aws_iam_discovery: ['secret_access_key', 'external_id'],
  int_azure_entra_discovery: ['client_secret'],
  int_okta_discovery: ['api_token'],
};

type Schema = { $schema?: string; properties?: Record<string, { writeOnly?: boolean }>; additionalProperties?: unknown; examples?: unknown[] };

describe('integrations catalog', () => {
  it('holds one discovery integration per provider system, with unique stable ids', () => {
    expect(integrations.map((i) => [i.integration_id, i.provider_system, i.connector_id])).toEqual([
      ['int_aws_iam_discovery', 'cloud_provider_a', 'aws-iam'],
      ['int_azure_entra_discovery', 'cloud_provider_b', 'azure-entra'],
      ['int_okta_discovery', 'identity_provider_a', 'okta'],
    ]);
    expect(new Set(integrations.map((i) => i.integration_id)).size).toBe(integrations.length);
    expect(new Set(integrations.map((i) => i.connector_id)).size).toBe(integrations.length);
  });

  it('has a connector for every integration, kept apart from the catalog entry', () => {
    const connectors = integrations.map((i) => connectorOf(i));
    expect(connectors).toHaveLength(3);
    for (const connector of connectors) {
      expect(typeof connector.test).toBe('function');
      expect(typeof connector.discover.readPage).toBe('function');
    }
    expect(new Set(connectors).size).toBe(3);
    expect(() => connectorOf({ connector_id: 'nope' })).toThrow(/No connector for nope/);
  });

  it('names the tracks of a run in the catalog entry, the very ones its connector reads', () => {
    // The same function: the connector's discovery takes its tracks from the catalog entry.
    for (const integration of integrations) expect(connectorOf(integration).discover.tracks).toBe(integration.discoveryTracks);
    expect(integrations.map((i) => i.discoveryTracks(i.examples.scope).map((t) => t.name))).toEqual([
      ['account:123456789012'],
      ['graph', expect.stringMatching(/^subscription:/)],
      ['users', 'groups', 'apps'],
    ]);
  });

  it.each(integrations.map((i) => [i.integration_id, i] as const))('%s: the view carries every spec field and nothing secret', (_id, definition) => {
    const view = integrationView(definition);
    expect(Object.keys(view).sort()).toEqual([...SPEC_FIELDS, 'configuration_schema', 'scope_schema'].sort());
    expect(view.connector_type).toBe('discovery');
    expect(view.version).toMatch(SEMVER);
    expect(view.supports_test).toBe(true);
    expect(view.required_permissions.length).toBeGreaterThan(0);
    expect(view.limits_blind_spots.length).toBeGreaterThan(0);
    expect(ENTITIES).toEqual(expect.arrayContaining(view.emits_entities));
    expect(RELATIONSHIPS).toEqual(expect.arrayContaining(view.emits_relationships));
    expect(new Date(view.created_at).toISOString().replace('.000Z', 'Z')).toBe(view.created_at);
    expect(view.updated_at >= view.created_at).toBe(true);
    expect(view).not.toHaveProperty('connector');
    expect(view).not.toHaveProperty('examples');
  });

  it.each(integrations.map((i) => [i.integration_id, i] as const))('%s: each example validates against its zod schema', (_id, definition) => {
    expect(definition.configurationSchema.safeParse(definition.examples.configuration).success).toBe(true);
    expect(definition.scopeSchema.safeParse(definition.examples.scope).success).toBe(true);
  });

  it.each(integrations.map((i) => [i.integration_id, i] as const))('%s: JSON Schemas are draft 2020-12, strict, with the example and writeOnly secrets', (id, definition) => {
    const view = integrationView(definition);
    const configuration = view.configuration_schema as Schema;
    const scope = view.scope_schema as Schema;
    for (const schema of [configuration, scope]) {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.additionalProperties).toBe(false);
    }
    expect(configuration.examples).toEqual([definition.examples.configuration]);
    expect(scope.examples).toEqual([definition.examples.scope]);

    const writeOnly = Object.entries(configuration.properties ?? {})
      .filter(([, property]) => property.writeOnly === true)
      .map(([name]) => name);
    expect(writeOnly.sort()).toEqual([...(SECRET_FIELDS[id] ?? [])].sort());
    expect(Object.values(scope.properties ?? {}).some((p) => p.writeOnly)).toBe(false);
  });

  it('answers a fresh copy of a view, so a caller cannot change the catalog', () => {
    const definition = integrations[0]!;
    const first = integrationView(definition);
    first.required_permissions.push('iam:*');
    (first.configuration_schema as Schema).examples = [];
    expect(integrationView(definition).required_permissions).not.toContain('iam:*');
    expect((integrationView(definition).configuration_schema as Schema).examples).toHaveLength(1);
  });

  it('finds by id and filters by permission and licence', () => {
    expect(findIntegration('int_okta_discovery')?.provider_system).toBe('identity_provider_a');
    expect(findIntegration('int_unknown')).toBeUndefined();
    expect(visibleIntegrations({ permissions: ['integrations:read'] })).toHaveLength(3);
    expect(visibleIntegrations({ permissions: ['connections:read'] })).toEqual([]);
    expect(visibleIntegrations({ permissions: ['integrations:read'], licensedIntegrationIds: ['int_okta_discovery'] }).map((i) => i.integration_id)).toEqual([
      'int_okta_discovery',
    ]);
  });
});

describe('configuration and scope schemas refuse', () => {
  const aws = findIntegration('int_aws_iam_discovery')!;
  const azure = findIntegration('int_azure_entra_discovery')!;
  const okta = findIntegration('int_okta_discovery')!;
  const valid = (definition: typeof aws, value: unknown) => definition.configurationSchema.safeParse(value).success;
  const validScope = (definition: typeof aws, value: unknown) => definition.scopeSchema.safeParse(value).success;

  it('unknown fields and missing secrets', () => {
    expect(valid(aws, { ...awsExamples.configuration, session_token: 'x' })).toBe(false);
    expect(valid(azure, { ...azureExamples.configuration, client_secret: undefined })).toBe(false);
    expect(validScope(okta, { group_filter: 'eng-', extra: true })).toBe(false);
  });

  it('an external id without a role, a temporary key, a malformed region or account id', () => {
    const base = { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
    expect(valid(aws, base)).toBe(true);
    expect(valid(aws, { ...base, external_id: 'tessera-ext' })).toBe(false);
    expect(valid(aws, { ...base, access_key_id: 'ASIAIOSFODNN7EXAMPLE' })).toBe(false);
    expect(valid(aws, { ...base, region: 'us-east-1.evil.example' })).toBe(false);
    expect(validScope(aws, { account_ids: ['12345678901'] })).toBe(false);
    expect(validScope(aws, { account_ids: [] })).toBe(false);
    expect(validScope(aws, { account_ids: ['123456789012', '123456789012'] })).toBe(false);
    expect(validScope(aws, { account_ids: Array.from({ length: 101 }, (_, i) => String(100000000000 + i)) })).toBe(false);
  });

  it('non-GUID Azure ids', () => {
    expect(valid(azure, { ...azureExamples.configuration, tenant_id: 'contoso.onmicrosoft.com' })).toBe(false);
    expect(validScope(azure, { subscription_ids: ['not-a-guid'] })).toBe(false);
  });

  it('an org URL that is not an Okta-hosted https origin (the token is sent there)', () => {
    const token = { api_token: oktaExamples.configuration.api_token };
    for (const orgUrl of ['https://acme.okta.com', 'https://acme.oktapreview.com/', 'https://acme.okta-emea.com']) {
      expect(valid(okta, { ...token, org_url: orgUrl }), orgUrl).toBe(true);
    }
    for (const orgUrl of ['http://acme.okta.com', 'http://127.0.0.1:8080', 'https://169.254.169.254', 'https://acme.okta.com.evil.example', 'https://acme.okta.com/api/v1', 'https://login.acme.example']) {
      expect(valid(okta, { ...token, org_url: orgUrl }), orgUrl).toBe(false);
    }
  });
});
