/**
 * A person of a workspace: the Principals of all its connections that share one lower-cased
 * email, or one Principal without an email. Its id is derived from that email (or from the
 * Principal), so every run of every connection names the same person without a lookup, and
 * the id holds while the person has a Principal.
 */
import { createHash } from 'node:crypto';
import { CROCKFORD_BASE32, base32Encode } from '../base32';
import type { WorkspaceScope } from '../identity/principal';
import { keys } from '../store/keys';

/** What one connection contributes to a person: its Principal and how many accounts it represents. */
export interface PersonMember {
  principal_id: string;
  principal_source_id: string;
  display_name: string;
  /** The email as the Principal spells it (null: a Principal without an email). */
  email: string | null;
  accounts: number;
  /**
   * The accounts themselves ([entity id, provider id]) while there are at most
   * INLINE_ACCOUNTS, so that a person's access starts without a query; absent (or null, once
   * there were more) the accounts are read from the inventory.
   */
  account_ids?: [string, string][] | null;
  /** The run and change part last applied to this member (a retried finalize applies nothing twice). */
  run: string;
  part: number;
}

export interface PersonRecord {
  person_id: string;
  display_name: string;
  name_key: string;
  email_key: string | null;
  /** By connection id: a connection has at most one Principal per email. */
  members: Record<string, PersonMember>;
  version: number;
}

/** Accounts a member names inline: more than any connector gives one Principal but AWS across many accounts. */
export const INLINE_ACCOUNTS = 25;

export interface PersonView {
  person_id: string;
  display_name: string;
  emails: string[];
  accounts: number;
  connections: string[];
}

/** The Principal's email key when its provider id is an email (Okta, Entra and tagged AWS users: lower-cased), else null. */
export const emailKeyOfPrincipal = (sourceId: string): string | null => (sourceId.includes('@') ? sourceId.toLowerCase() : null);

const digest = (...parts: string[]) => base32Encode(createHash('sha256').update(parts.join('\u0000')).digest(), CROCKFORD_BASE32).slice(0, 26);

export function personIdOf(scope: WorkspaceScope, connectionId: string, principalId: string, principalSourceId: string): string {
  const email = emailKeyOfPrincipal(principalSourceId);
  return `per_${email ? digest(scope.tenantId, scope.workspaceId, 'email', email) : digest(scope.tenantId, scope.workspaceId, 'principal', connectionId, principalId)}`;
}

/** The lower-cased form a name or email is ordered and searched by (control characters dropped: they would break the key). */
// eslint-disable-next-line no-control-regex
export const searchKeyOf = (text: string): string => text.replace(/[\u0000-\u001f]/g, '').toLowerCase();

/** The person's display name: its first connection's Principal's (connections in id order, so it is stable). */
export function summarize(members: Record<string, PersonMember>): { display_name: string; name_key: string } {
  const first = Object.keys(members).sort()[0];
  const display = first ? members[first]!.display_name : '';
  return { display_name: display, name_key: searchKeyOf(display) };
}

export function viewOf(record: PersonRecord): PersonView {
  const connections = Object.keys(record.members).sort();
  const members = connections.map((c) => record.members[c]!);
  return {
    person_id: record.person_id,
    display_name: record.display_name,
    emails: [...new Set(members.flatMap((m) => (m.email ? [m.email] : [])))].sort(),
    accounts: members.reduce((sum, m) => sum + m.accounts, 0),
    connections,
  };
}

export const personKey = (scope: WorkspaceScope, personId: string) => keys.person(scope.tenantId, scope.workspaceId, personId);
