/**
 * The per-cold-start cache of tenant OIDC configurations (discovery metadata, JWKS) that
 * lives in `deps`. Types only from openid-client, so functions without SSO do not bundle it.
 */
import type { Configuration } from 'openid-client';

export type OidcConfigurationCache = Map<string, { configuration: Configuration; expiresAt: number }>;

export const createOidcConfigurationCache = (): OidcConfigurationCache => new Map();
