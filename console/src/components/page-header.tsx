/**
 * The top of a page: its one h1 (where focus lands after a navigation, see page-content.tsx)
 * with the page's main actions beside it, below it on a narrow screen.
 */
import type { ComponentChildren } from 'preact';

export function PageHeader({ title, children }: { title: ComponentChildren; children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <h1>{title}</h1>
      {children && <div class="actions">{children}</div>}
    </div>
  );
}
