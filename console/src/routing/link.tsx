/** An in-app link: a real `<a href>` (keyboard, middle-click) that navigates without a reload. */
import type { ComponentChildren } from 'preact';
import { navigate } from './router';

export function Link({ href, children, current }: { href: string; children: ComponentChildren; current?: boolean }) {
  return (
    <a
      href={href}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
