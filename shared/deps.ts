/**
 * The dependencies of every use case, built once per cold start (AWS clients, keys, clock)
 * and handed to domain functions explicitly. Tests and the local host may install their own
 * (an injected clock, other rate limits) with `setDeps`.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { systemClock, type Clock } from './clock';
import { loadConfig, type Config } from './config';
import { createIdGenerator, type IdGenerator } from './ids';
import { createVerificationKeys, type VerificationKeys } from './identity/verification-keys';
import { createOidcConfigurationCache, type OidcConfigurationCache } from './identity/sso/oidc-configuration-cache';
import { createObservability, type Observability } from './observability';
import type { RunQueue } from './runs/run-queue';
import { createDynamoDbClient } from './store/client';
import { ItemCalls } from './store/item-calls';
import { TableClient } from './store/table-client';

export interface Deps {
  config: Config;
  db: DynamoDBClient;
  table: TableClient;
  clock: Clock;
  ids: IdGenerator;
  /** The published public keys that verify access tokens (no secret: see `identity/verification-keys.ts`). */
  verificationKeys: VerificationKeys;
  observability: Observability;
  /** Tenant OIDC discovery metadata and JWKS, kept across warm invocations. */
  oidcConfigurations: OidcConfigurationCache;
  /** The run queue the host installed (local host, tests); absent in AWS, where runs use SQS. */
  runQueue?: RunQueue;
  /** A part only some functions use, made on first use and kept with these deps (`DepsPart`). */
  part<T>(part: DepsPart<T>): T;
}

/**
 * A dependency that only some functions have (the issuers' private signing key, the envelope
 * crypto, the list cursor keys). The module that defines it is imported only by the code that
 * uses it, so other functions' bundles never contain it and their cold starts never build it;
 * it still lives and dies with these deps (a reset drops it).
 */
export interface DepsPart<T> {
  readonly name: string;
  create(deps: Deps): T;
}

export interface DepsOverrides {
  clock?: Clock;
  db?: DynamoDBClient;
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

let current: Promise<Deps> | undefined;

export function getDeps(): Promise<Deps> {
  current ??= createDeps(loadConfig()).catch((error: unknown) => {
    current = undefined; // let the next invocation try again instead of caching the failure
    throw error;
  });
  return current;
}

export function setDeps(deps: Deps | Promise<Deps>): void {
  current = Promise.resolve(deps);
}

export function resetDeps(): void {
  current = undefined;
}
