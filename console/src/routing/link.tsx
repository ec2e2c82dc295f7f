/** An in-app link: a real `<a href>` (keyboard, middle-click) that navigates without a reload. */
import type { ComponentChildren } from 'preact';
import { navigate } from './router';

/** `onFollow` runs before an in-app navigation (a dialog closing itself, say). */
/** `class="button"` draws the link as a button (a main action that goes to another page). */
export function Link({ href, children, current, onFollow, class: className }: { href: string; children: ComponentChildren; current?: boolean; onFollow?: () => void; class?: string }) {
  return (
    <a
      href={href}
      class={className}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onFollow?.();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
