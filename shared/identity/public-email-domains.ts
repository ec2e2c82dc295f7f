/**
 * Mail domains anyone can get an address at. No tenant may claim one for routing: discovery
 * would send every user of that provider to the tenant's IdP, and just-in-time provisioning
 * would let anyone with such an address in. (Proving control of a company domain, by DNS, is
 * not done yet; this keeps out the domains nobody can own.)
 */
const PUBLIC_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  'aol.com', 'fastmail.com', 'gmail.com', 'gmx.com', 'gmx.de', 'gmx.net', 'googlemail.com', 'hey.com', 'hotmail.com',
  'icloud.com', 'live.com', 'mac.com', 'mail.com', 'mail.ru', 'me.com', 'msn.com', 'outlook.com', 'pm.me', 'proton.me',
  'protonmail.com', 'qq.com', 'tutanota.com', 'web.de', 'yahoo.com', 'yandex.com', 'yandex.ru', 'zoho.com', '163.com',
]);

export function isPublicEmailDomain(domain: string): boolean {
  return PUBLIC_EMAIL_DOMAINS.has(domain.toLowerCase());
}
