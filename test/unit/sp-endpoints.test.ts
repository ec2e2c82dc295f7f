/**
 * Tessera's own SSO endpoints of a tenant, and the rule for URLs tenants give (issuers,
 * redirect URIs): https; http only on a loopback host, and only in the local stage.
 */
import { describe, expect, it } from 'vitest';
import { serviceProviderEndpoints, urlProblem } from '../../shared/identity/sso/sp-endpoints';

describe('SP endpoints', () => {
  it('derives the ACS (also the OIDC redirect URI), the entity id and the metadata URL from the public URL and the slug', () => {
    expect(serviceProviderEndpoints({ publicUrl: 'https://api.tessera.test' }, 'acme co')).toEqual({
      redirect_uri: 'https://api.tessera.test/v1/auth/sso/acme%20co/callback',
      acs_url: 'https://api.tessera.test/v1/auth/sso/acme%20co/callback',
      entity_id: 'https://api.tessera.test/v1/auth/sso/acme%20co/metadata',
      metadata_url: 'https://api.tessera.test/v1/auth/sso/acme%20co/metadata',
    });
  });
});

describe('urlProblem', () => {
  const local = { stage: 'local' } as const;
  const aws = { stage: 'aws' } as const;

  it('accepts https anywhere, http on a loopback host in the local stage only', () => {
    for (const value of ['https://idp.example/x', 'https://127.0.0.1:8443/']) {
      expect(urlProblem(local, value, 'issuer')).toBeUndefined();
      expect(urlProblem(aws, value, 'issuer')).toBeUndefined();
    }
    for (const value of ['http://localhost:9000/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb']) {
      expect(urlProblem(local, value, 'redirect_uri')).toBeUndefined();
      expect(urlProblem(aws, value, 'redirect_uri')).toEqual({ path: 'redirect_uri', message: 'must be https' });
    }
  });

  it('refuses what is not an absolute URL, credentials, a fragment, http elsewhere, other schemes; each under its path', () => {
    expect(urlProblem(local, '/relative', 'p')).toEqual({ path: 'p', message: 'must be an absolute URL' });
    expect(urlProblem(aws, 'https://user:secret@idp.example/', 'p')).toEqual({ path: 'p', message: 'must not carry credentials' });
    expect(urlProblem(aws, 'https://user@idp.example/', 'p')).toEqual({ path: 'p', message: 'must not carry credentials' });
    expect(urlProblem(aws, 'https://idp.example/cb#frag', 'p')).toEqual({ path: 'p', message: 'must not have a fragment' });
    expect(urlProblem(local, 'http://idp.example/cb', 'p')).toEqual({ path: 'p', message: 'must be https (http only on a loopback host)' });
    expect(urlProblem(local, 'http://127.0.0.1.example/cb', 'p')).toEqual({ path: 'p', message: 'must be https (http only on a loopback host)' });
    expect(urlProblem(local, 'ftp://localhost/cb', 'p')).toEqual({ path: 'p', message: 'must be https (http only on a loopback host)' });
    expect(urlProblem(aws, 'javascript:alert(1)', 'p')).toEqual({ path: 'p', message: 'must be https' });
  });
});
