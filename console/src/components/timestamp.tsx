/** A moment from the API as people read it, with the exact value kept in `datetime` for machines and in the tooltip. */
import { readableTime } from './readable-time';

export function Timestamp({ value }: { value: string }) {
  return <time dateTime={value} title={value}>{readableTime(value)}</time>;
}
