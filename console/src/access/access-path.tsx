/**
 * A path of the access graph, hop by hop: from an account through entitlements to what it
 * reaches, each hop by name and kind and linked to its entity's page.
 */
import type { Schemas } from '../api/client';
import { Link } from '../routing/link';
import { entityPath } from './paths';
import './explorer.css';

type Ref = Schemas['EntityRef'];

/** An entity as named by the API: its name linked to its page, then its kind. */
export function EntityName({ connectionId, entity }: { connectionId: string; entity: Pick<Ref, 'entity_id' | 'display_name'> & { kind: string } }) {
  // One element, so a stacked table's cell (a grid) keeps the name and its kind together.
  return <span class="entity-name"><Link href={entityPath(connectionId, entity.entity_id)}>{entity.display_name}</Link> <span class="kind">({entity.kind})</span></span>;
}

/** `label` names the list for a screen reader ("Path 1 of 2 to Payroll"). */
export function AccessPath({ connectionId, hops, label }: { connectionId: string; hops: Ref[]; label: string }) {
  return (
    <ol class="access-path" aria-label={label}>
      {hops.map((hop, i) => <li key={`${i}-${hop.entity_id}`}><EntityName connectionId={connectionId} entity={hop} /></li>)}
    </ol>
  );
}

export function AccessPaths({ connectionId, paths, target }: { connectionId: string; paths: Ref[][]; target: string }) {
  return (
    <div class="access-paths">
      {paths.map((hops, i) => <AccessPath key={i} connectionId={connectionId} hops={hops} label={`Path ${i + 1} of ${paths.length} to ${target}`} />)}
    </div>
  );
}
