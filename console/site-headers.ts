/**
 * The response headers of the console's site, owned here once: the local host
 * (infra/local/console-site.ts) sends them on every page, and in AWS the distribution's
 * response headers policy (infra/console-site.ts) is built from the same map, so the CSP a
 * browser enforces is the same everywhere.
 */

/**
 * Scripts, styles and everything else from this origin only, no inline code, no framing. The
 * console needs nothing more: its QR code is inline SVG markup, its styles a hashed file. The
 * one exception is `connectSources`: in AWS an export's content answers a redirect to a signed
 * URL of the exports bucket, which the console's fetch follows (infra/exports-bucket.ts).
 */
export function consoleCsp(connectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONSOLE_CSP = consoleCsp();

/**
 * HTTPS only, for two years, on this host name alone: the service does not own its
 * subdomains, so no `includeSubDomains` and no preload. Browsers ignore the header on plain
 * HTTP (RFC 6797 8.1), so the local host sends it harmlessly; in AWS the distribution sends it
 * on the console and on the API (infra/edge.ts).
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000';

/** The headers with a CSP that also lets the console fetch from `connectSources`. */
export const consoleSecurityHeadersFor = (connectSources: readonly string[]): Readonly<Record<string, string>> => ({
  ...consoleSecurityHeaders,
  'content-security-policy': consoleCsp(connectSources),
});

export const consoleSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'strict-transport-security': STRICT_TRANSPORT_SECURITY,
  // The reset link carries its token in the URL: no page of the console sends a Referer.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/** Where the build puts its content-hashed files (Vite's `assets/`): they never change under their name. */
export const HASHED_ASSETS_PREFIX = 'assets/';
export const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** index.html (and the few unhashed files) names the current assets: revalidated on every load. */
export const PAGE_CACHE_CONTROL = 'no-cache';
