/**
 * A moment from the API as people read it: relative ("5 minutes ago"), the exact time in the
 * reader's locale and zone as the tooltip, and the UTC value in `datetime` for machines. It
 * reads again every half minute, so "just now" does not stay on an open page.
 */
import { useEffect, useState } from 'preact/hooks';
import { readableTime, relativeTime } from './readable-time';

export function Timestamp({ value }: { value: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return <time dateTime={value} title={readableTime(value)}>{relativeTime(value, now)}</time>;
}
