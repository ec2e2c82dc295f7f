/**
 * The openid-client (v6) Configuration of a tenant's OIDC IdP: discovery metadata, client id
 * and secret (client_secret_basic, set explicitly), cached in `deps` per tenant across warm
 * invocations so discovery and the JWKS are fetched once, not per login. A change of issuer,
 * client id or secret changes the cache key. Plain http is allowed only for the loopback
 * issuers that local mode accepts (tests).
 */
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { Deps } from '../../deps';
import { encryptionContext } from '../../crypto/encryption-contexts';
import { envelopeOf } from '../../crypto/envelope';
import { ServiceUnavailableError } from '../../errors';
import type { OidcSettingsRecord } from '../../store/records';
import { guardedFetch } from './egress-guard';

const CACHE_TTL_MS = 60 * 60_000;
const HTTP_TIMEOUT_SECONDS = 5;

export async function oidcConfiguration(deps: Deps, tenantId: string, settings: OidcSettingsRecord): Promise<client.Configuration> {
  const key = createHash('sha256').update([tenantId, settings.issuer, settings.client_id, settings.client_secret_encrypted].join('\u0000')).digest('hex');
  const now = Date.now();
  const cached = deps.oidcConfigurations.get(key);
  if (cached && cached.expiresAt > now) return cached.configuration;

  const secret = await (await envelopeOf(deps)).decrypt(settings.client_secret_encrypted, encryptionContext('idp_client_secret', { tenant_id: tenantId }));
  const issuer = new URL(settings.issuer);
  try {
    // In AWS the issuer, and every endpoint its discovery names, must be a public address.
    const egress = deps.config.stage === 'aws' ? { [client.customFetch]: guardedFetch() } : {};
    const configuration = await client.discovery(issuer, settings.client_id, undefined, client.ClientSecretBasic(secret), {
      execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
      timeout: HTTP_TIMEOUT_SECONDS,
      ...egress,
    });
    configuration.timeout = HTTP_TIMEOUT_SECONDS;
    if (deps.config.stage === 'aws') configuration[client.customFetch] = guardedFetch();
    deps.oidcConfigurations.set(key, { configuration, expiresAt: now + CACHE_TTL_MS });
    return configuration;
  } catch (error) {
    throw new ServiceUnavailableError('The identity provider could not be reached or its discovery document is not acceptable', { cause: error });
  }
}
