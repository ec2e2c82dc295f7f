/**
 * Client-side routing on the History API: the host serves index.html for every non-file path
 * outside `/v1`, so a link such as `/reset-password?token=…` opens the right page directly.
 */
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();
let navigated = false;

function current(): Location {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  navigated = true;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', () => {
  navigated = true;
  for (const listener of listeners) listener();
});

/** Whether the view has changed since the page loaded: a link, a redirect, back or forward. */
export function navigatedSinceLoad(): boolean {
  return navigated;
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const listener = () => setLocation(current());
    listeners.add(listener);
    // A child's effect runs before this one: a navigation it made on its first render (the SSO
    // return page handing a link's outcome to /account) happened before anyone listened.
    const now = current();
    if (now.path !== location.path || now.query.toString() !== location.query.toString()) setLocation(now);
    return () => void listeners.delete(listener);
  }, []);
  return location;
}

/** The parameters of `pattern` (`/connections/:id`) in `path`, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = path.replace(/\/+$/, '').split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = have[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return params;
}
