/**
 * Identity provider A (an Okta org): schemas, the API scopes discovery needs, and the test
 * operation as a real client of the org's management API (`Authorization: SSWS <token>`), one
 * read per scope so each refusal names the scope (or admin role) that is missing.
 *
 * The org URL must be an Okta-hosted https origin: the service sends the API token to it, so a
 * free-form URL would let a tenant aim that call at any host the service can reach (SSRF).
 * Tests and local mode point the connector elsewhere with `context.endpoints.okta`, which comes
 * from the deployment's configuration, never from a tenant.
 */
import * as z from 'zod/mini';
import { oktaApiScopes } from './remediation';
import type { DiscoveryTrack } from '../discovery';


const ORG_URL = /^https:\/\/[a-z0-9][a-z0-9-]{0,62}\.(okta|oktapreview|okta-emea|okta-gov)\.com\/?$|^https:\/\/[a-z0-9][a-z0-9-]{0,62}\.okta\.mil\/?$/;

export const OktaConfigurationSchema = z.strictObject({
  org_url: z
    .string()
    .check(
      z.regex(ORG_URL, { message: 'must be the https URL of an Okta org, such as https://acme.okta.com' }),
      z.meta({ description: 'Okta-hosted URL of the org (https://<org>.okta.com), not a custom domain.', format: 'uri' }),
    ),
  api_token: z
    .string()
    .check(
      z.regex(/^[A-Za-z0-9_-]{20,128}$/, { message: 'must be an Okta API token' }),
      z.meta({ description: 'API token created by an admin with the Read-Only Administrator role.', writeOnly: true }),
    ),
});

export const OktaScopeSchema = z.strictObject({
  group_filter: z
    .optional(z.string().check(z.minLength(1), z.maxLength(255)))
    .check(z.meta({ description: 'Discover only groups whose name starts with this text (Okta group search `q`).' })),
});

export type OktaConfiguration = z.infer<typeof OktaConfigurationSchema>;
export type OktaScope = z.infer<typeof OktaScopeSchema>;

export const oktaExamples: { configuration: OktaConfiguration; scope: OktaScope } = {
  configuration: { org_url: 'https://acme.okta.com', api_token: '00EXAMPLEexampleEXAMPLEexample0123456789ab' },
  scope: { group_filter: 'eng-' },
};

export { oktaApiScopes };

/** What a discovery run of this scope reads, track by track (its progress starts from these; the connector reads them). */
export const oktaTracks = (): DiscoveryTrack[] => [{ name: 'users' }, { name: 'groups' }, { name: 'apps' }];
