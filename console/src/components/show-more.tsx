/**
 * "Show more" for a list the API pages with a cursor. A cursor can only go on from where the
 * last page ended, never jump to page N, and the API gives no total, so the honest control is
 * one that loads the next page below the rows already shown (with search and filters to narrow
 * the list) and says how many rows are shown and whether more are left.
 *
 * After a click, focus goes to the first row it added (its first link or button, else the row):
 * keyboard and screen reader users go on where the new rows begin, and focus is not lost when
 * the button goes away with the last page.
 */
import { useEffect, useRef, useState, type MutableRef } from 'preact/hooks';

export function ShowMore({ shown, noun, more, label, rows, onMore }: {
  /** Rows shown so far. */
  shown: number;
  /** What a row is, one and many (["entity", "entities"]). */
  noun: [one: string, many: string];
  /** Whether the API has another page. */
  more: boolean;
  /** The button's text, when "Show more …" is not the best word (a list newest first: "Show older runs"). */
  label?: string;
  /** The element holding the rows (a table's, or a wrapper's table's `tbody > tr`, or its own `li` children), for the focus move. */
  rows: MutableRef<HTMLElement | null>;
  onMore: () => Promise<unknown>;
}) {
  const [loading, setLoading] = useState(false);
  // A list that fits one page needs no count: the status line comes with paging.
  const [paged, setPaged] = useState(false);
  const firstNew = useRef<number | null>(null);

  useEffect(() => {
    const index = firstNew.current;
    if (index === null || shown <= index) return;
    firstNew.current = null;
    const row = rows.current?.querySelectorAll<HTMLElement>('tbody > tr, :scope > li')[index];
    if (!row) return;
    const control = row.querySelector<HTMLElement>('a, button');
    if (control) return control.focus();
    row.tabIndex = -1;
    row.focus();
  }, [shown]);

  async function showMore() {
    // Kept focusable while it loads (a disabled button would drop focus): a second press waits.
    if (loading) return;
    firstNew.current = shown;
    setPaged(true);
    setLoading(true);
    try {
      await onMore();
    } finally {
      setLoading(false);
    }
  }

  if (shown === 0 || (!more && !paged)) return null;
  const counted = `${shown} ${shown === 1 ? noun[0] : noun[1]}`;
  return (
    <div class="show-more">
      <p role="status">{more ? `${counted} shown; there are more.` : `${shown === 1 ? '' : 'All '}${counted} shown.`}</p>
      {more && <button type="button" class="secondary" aria-busy={loading} onClick={() => void showMore()}>{label ?? `Show more ${noun[1]}`}</button>}
    </div>
  );
}
