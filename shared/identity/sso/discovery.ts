/**
 * Login discovery by email-domain routing: which tenant has verified the domain, and whether
 * its users of that domain sign in with a password or through the tenant's active IdP.
 */
import type { Deps } from '../../deps';
import { NotFoundError } from '../../errors';
import { routedTenantOf } from '../email-domains';
import { getIdpConfig } from './idp-config';
import type { ProviderType } from './schemas';

export interface DiscoveryResult {
  tenant: string;
  methods: ('password' | 'sso')[];
  sso: { provider_type: ProviderType; start_url: string } | null;
}

export const emailDomainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export async function discoverLogin(deps: Deps, email: string): Promise<DiscoveryResult> {
  const domain = emailDomainOf(email);
  const tenant = await routedTenantOf(deps, domain);
  if (!tenant) throw new NotFoundError('tenant for this email domain');
  const idp = await getIdpConfig(deps, tenant.id);
  if (!idp?.active || !idp.email_domains.includes(domain)) return { tenant: tenant.slug, methods: ['password'], sso: null };
  return {
    tenant: tenant.slug,
    methods: ['sso'],
    sso: { provider_type: idp.provider_type, start_url: `${deps.config.publicUrl}/v1/auth/sso/${encodeURIComponent(tenant.slug)}/start` },
  };
}
