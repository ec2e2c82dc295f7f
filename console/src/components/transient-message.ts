/**
 * A success message that goes away: shown at once (a `role="status"` FormMessage announces it),
 * cleared after a few seconds or when the page that shows it goes. Errors stay until the next
 * try; they are not this.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export const TRANSIENT_MESSAGE_MS = 6_000;

export function useTransientMessage(): [string | undefined, (message: string | undefined) => void] {
  const [message, setMessage] = useState<string | undefined>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, (next) => {
    clearTimeout(timer.current);
    setMessage(next);
    if (next) timer.current = setTimeout(() => setMessage(undefined), TRANSIENT_MESSAGE_MS);
  }];
}
