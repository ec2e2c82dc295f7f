/**
 * What changed in an entity between two runs: its name and each attribute whose value differs,
 * before and after, as short text. A run's change list carries these so a reader sees what a
 * "changed" entity means without the previous inventory (which the run has replaced).
 *
 * Bounded, since change lists are stored in parts of a fixed size: at most MAX_CHANGES
 * attributes per entity (in name order), each value cut to MAX_VALUE characters.
 */
import type { AttributeChange } from '../store/records';

const MAX_CHANGES = 20;
const MAX_VALUE = 200;

interface Content {
  display_name: string;
  attributes: Record<string, unknown>;
}

/** A value as text: a string as it is, anything else as JSON; absent is null. */
function asText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** The name (as `display_name`) and the attributes that differ, before and after. */
export function attributeChangesOf(before: Partial<Content>, after: Content): AttributeChange[] {
  const changes: AttributeChange[] = [];
  if (before.display_name !== undefined && before.display_name !== after.display_name) changes.push(['display_name', before.display_name, after.display_name]);
  const old = before.attributes ?? {};
  const names = [...new Set([...Object.keys(old), ...Object.keys(after.attributes)])].sort();
  for (const name of names) {
    if (JSON.stringify(old[name]) === JSON.stringify(after.attributes[name])) continue;
    changes.push([name, asText(old[name]), asText(after.attributes[name])]);
  }
  return changes.slice(0, MAX_CHANGES);
}
