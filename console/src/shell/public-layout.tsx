/** The frame of the pages before sign-in (sign-in, MFA, password reset, the SSO return page). */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { useFocusOnChange } from '../components/focus-on-change';
import { navigatedSinceLoad } from '../routing/router';

export function PublicLayout({ path, children }: { path: string; children: ComponentChildren }) {
  const content = useRef<HTMLDivElement>(null);
  // One page replacing another (sign-in → MFA challenge, or sign-out → sign-in): focus goes to
  // the new page's start, as a page load would put it, not to the body after the old one is gone.
  useFocusOnChange(path, () => content.current, { onMount: navigatedSinceLoad() });
  return <div id="content" tabIndex={-1} ref={content}>{children}</div>;
}
