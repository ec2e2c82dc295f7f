/** The frame of the pages before sign-in (sign-in, MFA, password reset, the SSO return page). */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { useFocusOnChange } from '../components/focus-on-change';

export function PublicLayout({ path, children }: { path: string; children: ComponentChildren }) {
  const content = useRef<HTMLDivElement>(null);
  // One public page replacing another (sign-in → MFA challenge): focus goes to the new page's
  // start, as a page load would put it, not to the body after the old form is gone.
  useFocusOnChange(path, () => content.current);
  return <div id="content" tabIndex={-1} ref={content}>{children}</div>;
}
