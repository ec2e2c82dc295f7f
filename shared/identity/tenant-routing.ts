/** Which tenant a sign-in (or a password reset request) is for: the slug named, else the email's (verified) domain. */
import type { Deps } from '../deps';
import { getTenantBySlug } from '../store/identity-items';
import type { TenantRecord } from '../store/records';
import { routedTenantOf } from './email-domains';

export async function resolveLoginTenant(deps: Deps, slug: string | undefined, email: string): Promise<TenantRecord | undefined> {
  if (slug) return getTenantBySlug(deps, slug);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return routedTenantOf(deps, domain);
}
