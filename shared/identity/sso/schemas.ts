/**
 * What the tenant SSO schema modules share: the provider types and the URL syntax. The request
 * and response schemas live by resource (`idp-config-schemas.ts`, `sso-login-schemas.ts`,
 * `federated-identity-schemas.ts`), so a function carries only its route's.
 */
import * as z from 'zod/mini';

export const providerTypes = ['oidc', 'saml'] as const;

export type ProviderType = (typeof providerTypes)[number];

/** Syntax only; which schemes and hosts are acceptable is decided with the configuration (https, or http on loopback locally). */
export const AbsoluteUrl = z.pipe(z.string().check(z.maxLength(2048)), z.url({ protocol: /^https?$/ }));
