/**
 * The "Must show" block of issue 12: each criterion with the ratio measured in this run, its
 * limit, and PASS or FAIL. A criterion over many functions reports its worst one and names
 * those over the limit.
 */
export interface Criterion {
  name: string;
  /** The worst measured ratio (or value) and where it was measured. */
  measured: number;
  at?: string;
  limit: number;
  /** Names over the limit, when the criterion covers several functions. */
  over?: string[];
  unit?: string;
  /** The limit is a minimum (throughput), not a maximum. */
  atLeast?: boolean;
}

const NAMED_OVER = 8;

export function printMustShow(criteria: readonly Criterion[], of = 'issue 12'): void {
  console.log(`\nMust show (${of}; ratios measured in this run):`);
  for (const c of criteria) {
    const unit = c.unit ?? '×';
    const value = (n: number) => (unit === '×' ? `×${n.toFixed(2)}` : `${n.toFixed(2)} ${unit}`);
    const verdict = (c.atLeast ? c.measured >= c.limit : c.measured <= c.limit) ? 'PASS' : 'FAIL';
    const more = (c.over?.length ?? 0) > NAMED_OVER ? ` and ${c.over!.length - NAMED_OVER} more` : '';
    const over = c.over?.length ? `; ${c.over.length} over: ${c.over.slice(0, NAMED_OVER).join(', ')}${more}` : '';
    console.log(`  ${verdict}  ${c.name.padEnd(62)} ${value(c.measured).padStart(9)}${c.at ? ` (${c.at})` : ''}  ${c.atLeast ? 'at least' : 'limit'} ${value(c.limit)}${over}`);
  }
}

/** The criterion over `items`: worst ratio against its limit. */
export function worstOf<T extends { name: string }>(name: string, items: readonly T[], ratio: (item: T) => number, limit: number): Criterion {
  const rated = items.map((item) => ({ item, ratio: ratio(item) })).sort((a, b) => b.ratio - a.ratio);
  const worst = rated[0];
  if (!worst) throw new Error(`no function to judge for "${name}"`);
  return {
    name: `${name} (${items.length} functions)`,
    measured: worst.ratio,
    at: worst.item.name,
    limit,
    over: rated.filter((r) => r.ratio > limit).map((r) => r.item.name),
  };
}
