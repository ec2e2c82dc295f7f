/**
 * Moves focus to `target` whenever `key` changes after the first render: when one view
 * replaces another in place (a page, a form step), a keyboard or screen reader user starts at
 * the new one instead of on an element that is gone or left behind. The first render keeps
 * the browser's own page-load focus, unless `onMount`: a frame that mounts because of a
 * navigation (the sign-in handing over to the signed-in pages) replaces a view too.
 */
import { useEffect, useRef } from 'preact/hooks';

const NOT_SHOWN = Symbol('not shown');

export function useFocusOnChange(key: unknown, target: () => HTMLElement | null | undefined, options: { onMount?: boolean } = {}): void {
  const shown = useRef<unknown>(options.onMount ? NOT_SHOWN : key);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    target()?.focus();
  }, [key]);
}
