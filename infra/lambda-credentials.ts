/**
 * What the Lambda bundles use in place of `@aws-sdk/credential-provider-node` (an esbuild
 * `alias`, see infra/bundle-options.ts). Every SDK client's `runtimeConfig` imports that
 * package's `defaultProvider` as its `credentialDefaultProvider`; the default chain it builds
 * (environment, SSO, INI files, credential process, web identity token, ECS/IMDS) pulls the
 * STS/SSO/sign-in nested clients and the INI/IMDS/process providers into every bundle, and a
 * Lambda only ever uses its first link: the runtime sets AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN from the function's role. Leaving the rest out
 * saves about a third of the DynamoDB floor bundle and a fifth of its import time.
 *
 * Same contract as the original export: `defaultProvider(init)` returns a provider that yields
 * the environment credentials (passing `init`, so its logger is used), or rejects with the
 * SDK's `CredentialsProviderError` when they are missing. The local host and the tests run the
 * TypeScript sources, which keep the full chain.
 */
import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

export const defaultProvider = (init: FromEnvInit = {}): AwsCredentialIdentityProvider => fromEnv(init);

// The package's other exports, with its semantics, for any importer that uses them.
export const credentialsWillNeedRefresh = (credentials: AwsCredentialIdentity | undefined): boolean => credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials: AwsCredentialIdentity | undefined): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
