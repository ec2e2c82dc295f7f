/**
 * Moves focus to `target` whenever `key` changes after the first render: when one view
 * replaces another in place (a page, a form step), a keyboard or screen reader user starts at
 * the new one instead of on an element that is gone or left behind. The first render keeps
 * the browser's own page-load focus.
 */
import { useEffect, useRef } from 'preact/hooks';

export function useFocusOnChange(key: unknown, target: () => HTMLElement | null | undefined): void {
  const shown = useRef(key);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    target()?.focus();
  }, [key]);
}
