/**
 * A function bundles its own route and the schemas that route names, not the whole table: every
 * handler is bundled with esbuild (packages left external, as in handler-capabilities.test.ts)
 * and its metafile says which route and schema modules it carries. zod calls at module scope are
 * not tree-shaken, so one import of a schema module costs the whole module: the schema files are
 * split by resource, and this test keeps a function from quietly carrying other resources' again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiHandlers } from '../../functions/handlers';
import { DEFAULT_ROUTE_HANDLER, routeList } from '../../functions/routes';
import { bundleHandlerGraphs } from '../support/handler-graphs';

/**
 * The functions that carry the whole table: the OpenAPI document is built from it, and the
 * `$default` route's function answers 405 with the methods a path has.
 */
const READS_WHOLE_TABLE = ['openapi', DEFAULT_ROUTE_HANDLER];

const isRouteModule = (input: string) => input.startsWith('functions/routes/');
/** The zod schema modules: each resource's `*-schemas.ts`, the folders' `schemas.ts`, the HTTP path and page schemas. */
const isSchemaModule = (input: string) => input.startsWith('shared/') && /(^|\/|-)schemas\.ts$/.test(input);

const SSO_SCHEMAS = ['shared/identity/sso/idp-config-schemas.ts', 'shared/identity/sso/sso-login-schemas.ts', 'shared/identity/sso/federated-identity-schemas.ts'];
const MFA_SCHEMAS = ['shared/identity/mfa-schemas.ts'];
const CONNECTION_SCHEMAS = [
  'shared/connections/schemas.ts',
  'shared/connections/run-schemas.ts',
  'shared/connections/inventory-schemas.ts',
  'shared/connections/integration-schemas.ts',
];
const AUDIT_SCHEMAS = ['shared/audit/audit-event-schemas.ts'];

/** Schema modules a function must not carry: those of resources its route does not touch. */
const unrelatedSchemas: Record<string, string[]> = {
  'connections-get': [
    ...SSO_SCHEMAS,
    ...MFA_SCHEMAS,
    'shared/identity/schemas.ts',
    'shared/identity/auth-schemas.ts',
    'shared/identity/user-schemas.ts',
    'shared/connections/run-schemas.ts',
    'shared/connections/inventory-schemas.ts',
    'shared/connections/integration-schemas.ts',
    ...AUDIT_SCHEMAS,
  ],
  jwks: [...CONNECTION_SCHEMAS, ...AUDIT_SCHEMAS, ...SSO_SCHEMAS, ...MFA_SCHEMAS, 'shared/identity/user-schemas.ts', 'shared/identity/personal-access-token-schemas.ts'],
  'me-get': [...CONNECTION_SCHEMAS, ...AUDIT_SCHEMAS, ...SSO_SCHEMAS, ...MFA_SCHEMAS, 'shared/identity/auth-schemas.ts', 'shared/identity/workspace-schemas.ts'],
  'auth-login': [...CONNECTION_SCHEMAS, ...AUDIT_SCHEMAS, ...SSO_SCHEMAS, ...MFA_SCHEMAS, 'shared/identity/user-schemas.ts', 'shared/identity/email-domain-schemas.ts'],
  'tokens-create': [...CONNECTION_SCHEMAS, ...AUDIT_SCHEMAS, ...SSO_SCHEMAS, ...MFA_SCHEMAS, 'shared/identity/auth-schemas.ts', 'shared/identity/user-schemas.ts'],
  'sso-callback-post': [
    ...CONNECTION_SCHEMAS,
    ...AUDIT_SCHEMAS,
    ...MFA_SCHEMAS,
    'shared/identity/sso/idp-config-schemas.ts',
    'shared/identity/sso/federated-identity-schemas.ts',
    'shared/identity/auth-schemas.ts',
    'shared/identity/user-schemas.ts',
  ],
};

const handlers = [...apiHandlers];
const inputsOf = new Map<string, string[]>();
/** The packages a bundle imports (left external here, as in handler-capabilities.test.ts). */
const packagesOf = new Map<string, string[]>();

beforeAll(async () => {
  for (const graph of await bundleHandlerGraphs(handlers)) {
    inputsOf.set(graph.handler, graph.inputs);
    packagesOf.set(graph.handler, graph.packages);
  }
});

describe('route bundles', () => {
  it('carries its own route module and no other (openapi and the $default route\'s function: the whole table)', () => {
    const wrong = handlers.flatMap((handler) => {
      if (READS_WHOLE_TABLE.includes(handler)) return [];
      const routeModules = inputsOf.get(handler)!.filter(isRouteModule).sort();
      return routeModules.join() === `functions/routes/${handler}.ts` ? [] : [`${handler}: ${routeModules.join(', ')}`];
    });
    expect(wrong).toEqual([]);
    for (const handler of READS_WHOLE_TABLE) {
      const table = inputsOf.get(handler)!.filter(isRouteModule);
      expect(table, handler).toContain('functions/routes/index.ts');
      expect(table, handler).toHaveLength(routeList.length + 1);
    }
  });

  it.each(Object.keys(unrelatedSchemas))('%s carries no schema module of another resource', (handler) => {
    const schemas = inputsOf.get(handler)!.filter(isSchemaModule);
    expect(schemas.length).toBeGreaterThan(0);
    expect(schemas.filter((s) => unrelatedSchemas[handler]!.includes(s))).toEqual([]);
  });

  // Classic zod hangs its methods on prototypes, so a bundle that reaches it carries all of it
  // (~99 KiB); the lint rule covers shared/ and functions/, this also covers what they import.
  it('reaches zod only as zod/mini (and its English locale), never classic zod', () => {
    const classic = handlers.flatMap((handler) => packagesOf.get(handler)!.filter((p) => /^zod(\/|$)/.test(p) && p !== 'zod/mini' && p !== 'zod/v4/locales/en.js').map((p) => `${handler}: ${p}`));
    expect(classic).toEqual([]);
    expect(packagesOf.get('me-get')).toContain('zod/mini');
  });

  // samlify's entry point imports its whole XML signature and encryption stack (~500 KiB with
  // three copies of xpath): only the assertion consumer needs it. Reading IdP metadata, serving the
  // SP metadata and starting a login (saml-idp-metadata.ts, saml-sp-metadata.ts, saml-login.ts) do without.
  it('reaches samlify only in the SAML assertion consumer', () => {
    expect(handlers.filter((handler) => packagesOf.get(handler)!.includes('samlify'))).toEqual(['sso-callback-post']);
    for (const handler of ['idp-create', 'sso-metadata', 'sso-start', 'me-federated-identity-link']) expect(inputsOf.get(handler)!.some((i) => i.startsWith('shared/identity/sso/saml-'))).toBe(true);
  });

  // qrcode's main module requires every renderer, its PNG one with pngjs (~30 KiB, zlib streams
  // at import): the enrollment imports the QR core and the SVG renderer by path instead.
  it('reaches qrcode only by its QR core and SVG renderer, only where an enrollment starts', () => {
    const users = handlers.filter((handler) => packagesOf.get(handler)!.some((p) => /^qrcode(\/|$)/.test(p)));
    expect(users).toEqual(['mfa-enroll-start']);
    expect(packagesOf.get('mfa-enroll-start')!.filter((p) => /^qrcode(\/|$)/.test(p)).sort()).toEqual(['qrcode/lib/core/qrcode', 'qrcode/lib/renderer/svg-tag']);
  });

  it('names only schema modules that exist (so a rename cannot make the lists above vacuous)', () => {
    const everySchemaModule = new Set(handlers.flatMap((h) => inputsOf.get(h)!.filter(isSchemaModule)));
    expect([...new Set(Object.values(unrelatedSchemas).flat())].filter((s) => !everySchemaModule.has(s))).toEqual([]);
  });
});
