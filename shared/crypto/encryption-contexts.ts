/**
 * The encryption contexts of envelope ciphertexts: for each kind of secret, the keys its
 * context binds it to and, where the keys alone do not tell kinds apart, a fixed `purpose`.
 * The one owner of these names: use cases build every context here, in the encrypt or decrypt
 * call itself, and the stack conditions each function's KMS grant on exactly the kinds its
 * code uses (infra/handler-capabilities.ts `envelopeKeyUses`), so a function that may open
 * connection configurations cannot open a TOTP secret under the same key.
 */
import type { EncryptionContext } from './envelope-encryption-sdk';

export const encryptionContextShapes = {
  connection_configuration: { keys: ['tenant_id', 'workspace_id', 'connection_id'], purpose: undefined },
  totp_secret: { keys: ['tenant_id', 'user_id', 'purpose'], purpose: 'totp' },
  saml_sp_signing_key: { keys: ['tenant_id', 'purpose'], purpose: 'saml_sp_signing_key' },
  idp_client_secret: { keys: ['tenant_id', 'purpose'], purpose: 'idp_client_secret' },
  sso_pkce_verifier: { keys: ['tenant_id', 'purpose', 'state_hash'], purpose: 'sso_pkce' },
} as const satisfies Record<string, { keys: readonly string[]; purpose: string | undefined }>;

export type EncryptionContextKind = keyof typeof encryptionContextShapes;

/** The values a kind's context takes from its object: every key but the fixed `purpose`. */
export type EncryptionContextValues<K extends EncryptionContextKind> = Record<Exclude<(typeof encryptionContextShapes)[K]['keys'][number], 'purpose'>, string>;

/** The context of one secret of kind `kind`; its `purpose` is filled in from the shape. */
export function encryptionContext<K extends EncryptionContextKind>(kind: K, values: EncryptionContextValues<K>): EncryptionContext {
  const { purpose } = encryptionContextShapes[kind] as { purpose: string | undefined };
  return purpose === undefined ? { ...values } : { ...values, purpose };
}
