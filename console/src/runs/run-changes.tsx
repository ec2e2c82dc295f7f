/**
 * What a run changed, grouped by kind and then by change (added, changed, removed), each item by
 * name (a relationship as "from → to"; a changed entity with what changed, before → after), with filters for the kind, the change and a name. The
 * API pages the list without filters, so the pages read so far are grouped here and more are
 * read on request; the run's own totals say how many there are.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { entityPath } from '../access/paths';
import { Link } from '../routing/link';

type Ref = Schemas['EntityRef'];
type AttributeChange = Schemas['AttributeChange'];
/** A change as API.md has it: named, and for a relationship its two ends as refs. */
export type NamedChange = Schemas['RunChange'] & { display_name?: string; from?: Ref; to?: Ref };
type Change = NamedChange['change'];

const CHANGES: Change[] = ['added', 'changed', 'removed'];
const CHANGE_LABEL: Record<Change, string> = { added: 'Added', changed: 'Changed', removed: 'Removed' };
const ENTITY_KINDS = ['Principal', 'Account', 'Entitlement', 'Resource', 'CloudAccountBoundary'];
const PAGE = 100;

const isRelationship = (change: NamedChange) => !ENTITY_KINDS.includes(change.kind);
const nameOf = (change: NamedChange) => change.display_name ?? change.from?.display_name ?? change.source_id;
const toNameOf = (change: NamedChange) => change.to?.display_name ?? change.to_source_id ?? '';

/** Entity kinds first (in the model's order), then relationship kinds by name. */
function kindOrder(a: string, b: string): number {
  const ia = ENTITY_KINDS.indexOf(a);
  const ib = ENTITY_KINDS.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  return a.localeCompare(b);
}

export function RunChanges({ connectionId, runId, total }: { connectionId: string; runId: string; total: number }) {
  const [changes, setChanges] = useState<NamedChange[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const [kind, setKind] = useState('');
  const [change, setChange] = useState<Change | ''>('');
  const [name, setName] = useState('');

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections/{id}/runs/{run_id}/changes', { params: { path: { id: connectionId, run_id: runId }, query: { limit: PAGE, ...(from ? { cursor: from } : {}) } } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setChanges((seen) => [...(from ? seen : []), ...(outcome.data.changes as NamedChange[])]);
    setCursor(outcome.data.next_cursor);
    setLoaded(true);
  }
  useEffect(() => void load(), [runId, total]);

  const kinds = [...new Set(changes.map((c) => c.kind))].sort(kindOrder);
  const needle = name.trim().toLowerCase();
  const shown = changes.filter((c) => (!kind || c.kind === kind) && (!change || c.change === change) && (!needle || nameOf(c).toLowerCase().includes(needle) || toNameOf(c).toLowerCase().includes(needle)));
  const groups = kinds
    .filter((k) => shown.some((c) => c.kind === k))
    .map((k) => ({ kind: k, byChange: CHANGES.map((ch) => ({ change: ch, items: shown.filter((c) => c.kind === k && c.change === ch) })).filter((g) => g.items.length > 0) }));

  return (
    <section aria-labelledby="run-changes-title">
      <h2 id="run-changes-title">Changes</h2>
      <FormMessage message={message} />
      {loaded && changes.length === 0 && <p>This run changed nothing.</p>}
      {changes.length > 0 && (
        <>
          <p>{cursor ? `Showing the first ${changes.length} of ${total} changes.` : `${changes.length} ${changes.length === 1 ? 'change' : 'changes'}.`}</p>
          <div class="inline-form filters">
            <div class="field">
              <label for="change-kind">Kind</label>
              <select id="change-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
                <option value="">All kinds</option>
                {kinds.map((k) => <option key={k} value={k}>{k}</option>)}
              </select>
            </div>
            <div class="field">
              <label for="change-type">Change</label>
              <select id="change-type" value={change} onChange={(e) => setChange(e.currentTarget.value as Change | '')}>
                <option value="">All changes</option>
                {CHANGES.map((ch) => <option key={ch} value={ch}>{CHANGE_LABEL[ch]}</option>)}
              </select>
            </div>
            <div class="field">
              <label for="change-name">Name contains</label>
              <input id="change-name" type="search" value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </div>
          </div>
          {groups.length === 0 && <p>No change matches these filters.</p>}
          {groups.map((group) => (
            <section key={group.kind} aria-labelledby={`changes-${group.kind}`} class="change-group">
              <h3 id={`changes-${group.kind}`}>{group.kind}</h3>
              {group.byChange.map(({ change: ch, items }) => (
                <div key={ch}>
                  <h4 id={`changes-${group.kind}-${ch}`}>{CHANGE_LABEL[ch]} ({items.length})</h4>
                  <ul aria-labelledby={`changes-${group.kind}-${ch}`} class={`changes changes-${ch}`}>
                    {items.map((c, i) => (
                      <li key={i}>
                        <ChangeName connectionId={connectionId} change={c} />
                        {c.changed_attributes && <WhatChanged name={nameOf(c)} changes={c.changed_attributes} />}
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </section>
          ))}
        </>
      )}
      {cursor && <button type="button" onClick={() => void load(cursor)}>More changes</button>}
    </section>
  );
}

/** A changed entity's attributes, each before → after; an absent value reads "none". */
function WhatChanged({ name, changes }: { name: string; changes: AttributeChange[] }) {
  const value = (text: string | null) => (text === null ? <em>none</em> : text);
  return (
    <ul class="attribute-changes" aria-label={`What changed in ${name}`}>
      {changes.map((c) => (
        <li key={c.attribute}>
          <code>{c.attribute}</code>: <span class="before">{value(c.before)}</span> → <span class="after">{value(c.after)}</span>
        </li>
      ))}
    </ul>
  );
}

function ChangeName({ connectionId, change }: { connectionId: string; change: NamedChange }) {
  if (isRelationship(change)) return <>{nameOf(change)} → {toNameOf(change)}</>;
  // A removed entity has no page any more.
  if (change.change === 'removed') return <>{nameOf(change)}</>;
  return <Link href={entityPath(connectionId, change.entity_id)}>{nameOf(change)}</Link>;
}
