/**
 * The dependencies of every use case, built once per cold start (AWS clients, keys, clock)
 * and handed to domain functions explicitly. This module only holds them: what builds them
 * (`functions/start/deps-assembly.ts`) sits where the functions and the local host start, so that
 * the bottom floor (the endpoint middleware, the job wrapper) never imports the domain. A Lambda
 * bundle installs the factory at start (`functions/start/lambda-start.ts`, injected by the bundler);
 * the local host, the bench and tests install theirs (an injected clock, other rate limits)
 * with `setDeps`.
 */
import type { DynamoDbClient } from './store/client';
import type { Clock } from './clock';
import type { Config } from './config';
import type { IdGenerator } from './ids';
import type { VerificationKeys } from './identity/verification-keys';
import type { OidcConfigurationCache } from './identity/sso/oidc-configuration-cache';
import type { Observability } from './observability';
import type { RunQueue } from './runs/run-queue';
import type { TableClient } from './store/table-client';

export interface Deps {
  config: Config;
  db: DynamoDbClient;
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

export type DepsFactory = () => Promise<Deps>;

let factory: DepsFactory | undefined;
let current: Promise<Deps> | undefined;

export function getDeps(): Promise<Deps> {
  if (current) return current;
  if (!factory) return Promise.reject(new Error('No dependencies installed: the host calls setDeps or setDepsFactory at start'));
  current = factory().catch((error: unknown) => {
    current = undefined; // let the next invocation try again instead of caching the failure
    throw error;
  });
  return current;
}

/**
 * How this process builds its deps when none are set (a Lambda bundle, the local host: from the
 * configuration). Deps already set by `setDeps` stay.
 */
export function setDepsFactory(build: DepsFactory): void {
  factory = build;
}

export function setDeps(deps: Deps | Promise<Deps>): void {
  current = Promise.resolve(deps);
}

export function resetDeps(): void {
  current = undefined;
}
