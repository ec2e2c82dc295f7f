/**
 * Builds the deps of `shared/deps.ts` from the configuration: the composition root, where the
 * functions, the local host, the bench and the tests start (the bottom floor only holds them).
 */
import { systemClock, type Clock } from '../../shared/clock';
import type { Config } from '../../shared/config';
import type { Deps, DepsPart } from '../../shared/deps';
import type { DynamoDbClient } from '../../shared/store/client';
import { createIdGenerator } from '../../shared/ids';
import { createVerificationKeys } from '../../shared/identity/verification-keys';
import { createOidcConfigurationCache } from '../../shared/identity/sso/oidc-configuration-cache';
import { createObservability, type Observability } from '../../shared/observability';
import type { RunQueue } from '../../shared/runs/run-queue';
import { createDynamoDbClient } from '../../shared/store/client';
import { ItemCalls } from '../../shared/store/item-calls';
import { TableClient } from '../../shared/store/table-client';

export interface DepsOverrides {
  clock?: Clock;
  db?: DynamoDbClient;
  observability?: Observability;
  runQueue?: RunQueue;
}

export function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const clock = overrides.clock ?? systemClock;
  const db = overrides.db ?? createDynamoDbClient(config);
  const table = new TableClient(new ItemCalls(db), config.tableName);
  const parts = new Map<DepsPart<unknown>, unknown>();
  const deps: Deps = {
    config,
    db,
    table,
    clock,
    ids: createIdGenerator(() => clock.now().getTime()),
    verificationKeys: createVerificationKeys({ table, clock, config }),
    observability: overrides.observability ?? createObservability(),
    oidcConfigurations: createOidcConfigurationCache(),
    ...(overrides.runQueue ? { runQueue: overrides.runQueue } : {}),
    part<T>(part: DepsPart<T>): T {
      if (!parts.has(part)) parts.set(part, part.create(deps));
      return parts.get(part) as T;
    },
  };
  return Promise.resolve(deps);
}

