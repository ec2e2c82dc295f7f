/**
 * The audit chains' anchor outside the table: after every committed append, the head it left
 * (seq and digest) is recorded in a store that keeps what it was given and cannot be told to
 * forget it (AWS: an S3 bucket under Object Lock in compliance mode; locally: an append-only
 * file). Someone who can rewrite the table can recompute every digest and the head, but not
 * take back a head already anchored: `verify-audit` compares the chain with those heads, so a
 * cut (the newest events deleted, the head moved back) or a rewritten past shows.
 */
import type { ChainLink } from '../store/table-client';

/** One audit log's chain: a tenant's identity log, or a workspace's log. */
export interface AuditChainRef {
  tenantId: string;
  /** The workspace's log; without it, the tenant's identity log. */
  workspaceId?: string | undefined;
}

export interface AuditAnchor {
  /** Records that the chain's head is now `head`; never replaces or removes a record. */
  record(chain: AuditChainRef, head: ChainLink): Promise<void>;
  /** Every head recorded for the chain, by seq (a seq may appear with two digests: a conflict the check reports). */
  heads(chain: AuditChainRef): Promise<ChainLink[]>;
}

/** The chain's name in the anchor store: `<tenant>/identity` or `<tenant>/workspaces/<workspace>`. */
export function anchorChainName(chain: AuditChainRef): string {
  return chain.workspaceId ? `${chain.tenantId}/workspaces/${chain.workspaceId}` : `${chain.tenantId}/identity`;
}

export const bySeq = (a: ChainLink, b: ChainLink) => a.seq - b.seq || (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0);
