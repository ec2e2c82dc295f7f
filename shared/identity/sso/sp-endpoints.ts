/**
 * Tessera's own SSO endpoints for one tenant, as the IdP must know them, and the rule for
 * URLs that tenants give us (issuers, redirect URIs): https, or http on a loopback host in
 * local mode only (tests and local IdPs).
 */
import type { Config } from '../../config';
import type { FieldError } from '../../errors';

export interface ServiceProviderEndpoints {
  /** The OIDC redirect URI; also the SAML AssertionConsumerService (HTTP-POST). */
  redirect_uri: string;
  acs_url: string;
  entity_id: string;
  metadata_url: string;
}

export function serviceProviderEndpoints(config: Pick<Config, 'publicUrl'>, tenantSlug: string): ServiceProviderEndpoints {
  const base = `${config.publicUrl}/v1/auth/sso/${encodeURIComponent(tenantSlug)}`;
  return { redirect_uri: `${base}/callback`, acs_url: `${base}/callback`, entity_id: `${base}/metadata`, metadata_url: `${base}/metadata` };
}

const isLoopbackHost = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

/** undefined when acceptable, else the field error to report. */
export function urlProblem(config: Pick<Config, 'stage'>, value: string, path: string): FieldError | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { path, message: 'must be an absolute URL' };
  }
  if (url.username || url.password) return { path, message: 'must not carry credentials' };
  if (url.hash) return { path, message: 'must not have a fragment' };
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && config.stage === 'local' && isLoopbackHost(url.hostname)) return undefined;
  return { path, message: config.stage === 'local' ? 'must be https (http only on a loopback host)' : 'must be https' };
}
