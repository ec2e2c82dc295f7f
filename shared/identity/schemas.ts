/**
 * The field schemas of identity requests (emails, email domains, usernames, tenant slugs,
 * passwords, codes, roles) that the resource schema modules (`*-schemas.ts` beside this one)
 * and the domain build on. Each route module imports only the resource modules it names, so
 * a function carries the schemas of its own route and not those of every identity endpoint.
 */
import * as z from 'zod/mini';
import { roles } from '../store/identity-enums';
import { isPublicEmailDomain } from './public-email-domains';

export const Email = z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254)), z.email());

/**
 * An email domain a tenant may claim for routing: a domain name (lowercased, without a trailing
 * dot; at least two labels, so no single label and no IP address), and not one of a public mail provider.
 */
export const DomainName = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.overwrite((domain) => domain.replace(/\.$/, '')),
    z.refine((domain) => !/^[\d.]+$/.test(domain) && !domain.includes(':'), { message: 'is an IP address; give a domain name', abort: true }),
    z.regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { message: 'must be a domain name' }),
    z.refine((domain) => !isPublicEmailDomain(domain), { message: 'is a public mail provider\'s domain, which no tenant can claim' }),
  );

/**
 * A login name besides the email: 3 to 64 letters, digits, dots, hyphens or underscores,
 * starting and ending with a letter or digit, compared case-insensitively (kept lower case).
 * Never an email address, so an email and a username can never be mistaken for each other.
 */
export const Username = z.pipe(
  z.string().check(z.trim(), z.toLowerCase(), z.refine((v) => !v.includes('@'), { message: 'must not be an email address (a username has no @)', abort: true })),
  z.string().check(z.regex(/^[a-z0-9](?:[a-z0-9._-]{1,62})[a-z0-9]$/, { message: 'must be 3 to 64 letters, digits, dots, hyphens or underscores, starting and ending with a letter or digit' })),
);

export const TenantSlug = z.string().check(z.regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { message: 'must be a tenant slug' }));

/** Login compares against the stored hash, so any length the policy may once have allowed is accepted here. */
export const PasswordAttempt = z.string().check(z.minLength(1), z.maxLength(1024));

export const NewPassword = z.string().check(z.minLength(12), z.maxLength(128));

export const RoleSchema = z.enum(roles);

export const MfaCode = z.string().check(z.regex(/^\d{6}$/, { message: 'must be 6 digits' }));

export const BackupCode = z.string().check(z.minLength(8), z.maxLength(64));

export const OpaqueToken = z.string().check(z.minLength(1), z.maxLength(512));
