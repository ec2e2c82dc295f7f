/**
 * The dependencies of every use case, built once per cold start (AWS clients, keys, clock)
 * and handed to domain functions explicitly. Tests and the local host may install their own
 * (an injected clock, other rate limits) with `setDeps`.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { systemClock, type Clock } from './clock';
import { loadConfig, type Config } from './config';
import { loadSigningKeys, type SigningKeySet } from './crypto/signing-keys';
import { createIdGenerator, type IdGenerator } from './ids';
import { LazyResources } from './lazy-resources';
import { createOidcConfigurationCache, type OidcConfigurationCache } from './identity/sso/oidc-configuration-cache';
import { createObservability, type Observability } from './observability';
import type { RunQueue } from './runs/run-queue';
import { createDocumentClient } from './store/client';
import { TableClient } from './store/table-client';

export interface Deps {
  config: Config;
  db: DynamoDBDocumentClient;
  table: TableClient;
  clock: Clock;
  ids: IdGenerator;
  /**
   * What a use case loads on first use (the envelope crypto: `envelopeOf(deps)` in
   * `crypto/envelope.ts`), so that only the functions that need it bundle and load it.
   */
  lazy: LazyResources;
  signingKeys: SigningKeySet;
  observability: Observability;
  /** Tenant OIDC discovery metadata and JWKS, kept across warm invocations. */
  oidcConfigurations: OidcConfigurationCache;
  /** The run queue the host installed (local host, tests); absent in AWS, where runs use SQS. */
  runQueue?: RunQueue;
}

export interface DepsOverrides {
  clock?: Clock;
  db?: DynamoDBDocumentClient;
  observability?: Observability;
  runQueue?: RunQueue;
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const clock = overrides.clock ?? systemClock;
  const signingKeys = await loadSigningKeys(config);
  const db = overrides.db ?? createDocumentClient(config);
  return {
    config,
    db,
    table: new TableClient(db, config.tableName),
    clock,
    ids: createIdGenerator(() => clock.now().getTime()),
    lazy: new LazyResources(),
    signingKeys,
    observability: overrides.observability ?? createObservability(),
    oidcConfigurations: createOidcConfigurationCache(),
    ...(overrides.runQueue ? { runQueue: overrides.runQueue } : {}),
  };
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
