/**
 * The encryption contexts are part of every stored ciphertext: a context that changed would
 * leave the secrets already in the table unreadable (decrypt checks it), and the KMS grants are
 * conditioned on these keys. Pinned here, kind by kind, as they have been since each was written.
 */
import { describe, expect, it } from 'vitest';
import { encryptionContext, encryptionContextShapes } from '../../shared/crypto/encryption-contexts';

describe('encryption contexts', () => {
  it('are what the stored ciphertexts were made with', () => {
    expect(encryptionContext('connection_configuration', { tenant_id: 't', workspace_id: 'w', connection_id: 'c' })).toEqual({ tenant_id: 't', workspace_id: 'w', connection_id: 'c' });
    expect(encryptionContext('totp_secret', { tenant_id: 't', user_id: 'u' })).toEqual({ tenant_id: 't', user_id: 'u', purpose: 'totp' });
    expect(encryptionContext('saml_sp_signing_key', { tenant_id: 't' })).toEqual({ tenant_id: 't', purpose: 'saml_sp_signing_key' });
    expect(encryptionContext('idp_client_secret', { tenant_id: 't' })).toEqual({ tenant_id: 't', purpose: 'idp_client_secret' });
    expect(encryptionContext('sso_pkce_verifier', { tenant_id: 't', state_hash: 'h' })).toEqual({ tenant_id: 't', purpose: 'sso_pkce', state_hash: 'h' });
  });

  it('have exactly the keys their shape declares (what the KMS grants require)', () => {
    const sample = { tenant_id: 't', workspace_id: 'w', connection_id: 'c', user_id: 'u', state_hash: 'h' };
    for (const [kind, shape] of Object.entries(encryptionContextShapes)) {
      const values = Object.fromEntries(shape.keys.filter((k) => k !== 'purpose').map((k) => [k, sample[k]]));
      expect(Object.keys(encryptionContext(kind as keyof typeof encryptionContextShapes, values as never)).sort(), kind).toEqual([...shape.keys].sort());
    }
  });
});
