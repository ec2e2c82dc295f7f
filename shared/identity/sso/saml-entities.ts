/**
 * samlify entities of one tenant, for the assertion consumer: Tessera as the service provider
 * (its metadata as saml-sp-metadata.ts writes it: entity id and ACS derived from the public URL and
 * the tenant slug, signed assertions required; a small clock drift) and the tenant's IdP from its
 * stored metadata. IdP-initiated login is not offered: every response must answer an
 * AuthnRequest Tessera stored.
 *
 * Both entities are built from a metadata document and never with `isAssertionEncrypted`: the
 * Lambda bundle carries samlify without its metadata writer and its assertion decryption
 * (infra/samlify-post-consumer-plugin.ts), which throw if reached.
 */
import samlify from 'samlify';
import type { Config } from '../../config';
import type { SamlSettingsRecord } from '../../store/records';
import { serviceProviderMetadataXml } from './saml-sp-metadata';

/** Allowed clock difference with the IdP for NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_SECONDS = 30;

export function serviceProviderFor(config: Pick<Config, 'publicUrl'>, tenantSlug: string) {
  return samlify.ServiceProvider({
    metadata: serviceProviderMetadataXml(config, tenantSlug),
    clockDrifts: [-SAML_CLOCK_SKEW_SECONDS * 1000, SAML_CLOCK_SKEW_SECONDS * 1000],
  });
}

export function identityProviderFor(settings: SamlSettingsRecord) {
  return samlify.IdentityProvider({ metadata: settings.metadata });
}
