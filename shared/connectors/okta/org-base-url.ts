/**
 * Where an Okta org's API is reached: its own URL, unless the deployment's configuration (local
 * mode and tests only, never a tenant) points that org, or every org, at another base URL.
 */
export function oktaBaseUrl(orgUrl: string, context: { endpoints?: Record<string, string>; oktaOrgs?: Record<string, string> }): string {
  const host = new URL(orgUrl).host.toLowerCase();
  return (context.oktaOrgs?.[host] ?? context.endpoints?.okta ?? orgUrl).replace(/\/+$/, '');
}
