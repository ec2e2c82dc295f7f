/**
 * Where a page goes in either frame (signed in or not): the skip link's target, and where focus
 * goes when one page replaces another, as a page load would put it, not on the link that led
 * there or on the body after the old page is gone. A frame that mounts because of a navigation
 * (sign-in → the signed-in pages, sign-out → sign-in) moves focus too; a page load does not.
 */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { useFocusOnChange } from '../components/focus-on-change';
import { navigatedSinceLoad } from '../routing/router';

export function PageContent({ path, children }: { path: string; children: ComponentChildren }) {
  const content = useRef<HTMLDivElement>(null);
  useFocusOnChange(path, () => content.current, { onMount: navigatedSinceLoad() });
  return <div id="content" tabIndex={-1} ref={content}>{children}</div>;
}
