/**
 * Where a page goes in either frame (signed in or not): the skip link's target, and where focus
 * goes when one page replaces another, as a page load would put it, not on the link that led
 * there or on the body after the old page is gone. Focus lands on the new page's h1 (a screen
 * reader reads the page's name first; styles.css draws no ring round it, since nothing there
 * can be acted on), or on the content itself for a page with no heading yet. A frame that
 * mounts because of a navigation (sign-in → the signed-in pages, sign-out → sign-in) moves
 * focus too; a page load does not.
 */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { useFocusOnChange } from '../components/focus-on-change';
import { navigatedSinceLoad } from '../routing/router';

export function PageContent({ path, children }: { path: string; children: ComponentChildren }) {
  const content = useRef<HTMLDivElement>(null);
  useFocusOnChange(path, () => {
    const heading = content.current?.querySelector<HTMLElement>('h1');
    if (!heading) return content.current;
    heading.tabIndex = -1;
    return heading;
  }, { onMount: navigatedSinceLoad() });
  return <div id="content" tabIndex={-1} ref={content}>{children}</div>;
}
