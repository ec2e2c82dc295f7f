/**
 * The count limits of the contract (API.md, Errors: 409 `limit_exceeded`) and the counters
 * that enforce them. A counter is an item of its own, moved by the same transaction that
 * creates (or deletes) what it counts, with a condition on the limit: however many requests
 * race, the transaction that would pass the limit is cancelled, so the count and the items
 * never disagree and the limit is never passed. Active PATs, which also stop counting when
 * they expire, are counted by a roster of expiries instead (identity/personal-access-tokens.ts).
 */
import type { ItemKey } from './keys';
import { cancellationCodes, type TableClient, type TransactItem } from './table-client';

export const countLimits = {
  /** Active (neither revoked nor expired) personal access tokens of one user, across workspaces. */
  personalAccessTokensPerUser: 50,
  connectionsPerWorkspace: 1000,
  /**
   * Also what bounds a user item: its `roles` map has an entry per workspace the user holds a
   * role in (the creator of each workspace becomes its admin), each at most ~55 bytes (the
   * `ws_` id, 30 characters, the longest role, `connector_builder`, 17, and DynamoDB's few
   * bytes of overhead per map entry), so 1000 workspaces make at most ~55 KB of the 400 KB an
   * item may hold, beside the user's own fields (well under 2 KB).
   */
  workspacesPerTenant: 1000,
} as const;

/** The counter's move up, refused (a failed condition) when it already holds `limit`. */
export function countUpItem(table: TableClient, key: ItemKey, limit: number): TransactItem {
  return table.updateItem({
    Key: key,
    UpdateExpression: 'ADD #count :one',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':one': 1, ':limit': limit },
  });
}

/** The counter's move down, with a deletion. No condition: a deletion is never refused for the count's sake. */
export function countDownItem(table: TableClient, key: ItemKey): TransactItem {
  return table.updateItem({
    Key: key,
    UpdateExpression: 'ADD #count :minus',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':minus': -1 },
  });
}

/**
 * Whether a transaction was cancelled by its counter's condition (the item at `index`): the
 * limit, reached. Not a conflict with a parallel transaction on the counter, which is a race
 * lost, not a limit (`TableClient.transact` tries such a race again where it can).
 */
export const failedConditionAt = (error: unknown, index: number): boolean => cancellationCodes(error)?.[index] === 'ConditionalCheckFailed';
