/**
 * The remediation texts of the Okta and Entra ID connectors pick the right case from what the
 * provider said (or did not say), and name only the configuration's identifiers.
 */
import { describe, expect, it } from 'vitest';
import { tokenRefused } from '../../shared/connectors/azure/remediation';
import { errorCodeOf, rejectedToken, resetHint } from '../../shared/connectors/okta/remediation';

describe('Okta remediation', () => {
  it('names the error code when Okta gives one', () => {
    expect(rejectedToken('E0000011').message).toContain('Okta rejected the API token (E0000011):');
    expect(rejectedToken(undefined).message).toContain('Okta rejected the API token:');
    expect(errorCodeOf({ errorCode: 'E0000047' })).toBe(' E0000047');
    expect(errorCodeOf({})).toBe('');
    expect(errorCodeOf('not json')).toBe('');
  });

  it('reads X-Rate-Limit-Reset as an epoch second, anything else as "a minute"', () => {
    expect(resetHint('1767225600')).toBe('the limit resets at 2026-01-01T00:00:00.000Z');
    expect(resetHint('soon')).toBe('retry in a minute');
    expect(resetHint(null)).toBe('retry in a minute');
  });
});

describe('Entra ID token refusals', () => {
  const refusal = (error: string | undefined, aadsts: string | undefined) => tokenRefused(error, aadsts, 'client-1', 'tenant-1');

  it('an unknown tenant, an unknown app, a wrong secret, and the rest', () => {
    expect(refusal('invalid_request', 'AADSTS90002')).toMatchObject({ category: 'configuration', message: 'Microsoft Entra ID does not know the tenant tenant-1 (AADSTS90002).' });
    expect(refusal('invalid_request', 'AADSTS900023').category).toBe('configuration');
    expect(refusal('unauthorized_client', 'AADSTS700016').message).toBe('No application with client id client-1 exists in tenant tenant-1 (AADSTS700016).');
    expect(refusal('unauthorized_client', undefined).message).toBe('No application with client id client-1 exists in tenant tenant-1.');
    expect(refusal('invalid_client', 'AADSTS7000215').message).toContain('rejected the client secret of app client-1 (AADSTS7000215)');
    expect(refusal('invalid_client', undefined).message).toContain('rejected the client secret of app client-1: it is wrong or expired.');
    expect(refusal('invalid_grant', 'AADSTS50000').message).toBe('Microsoft Entra ID refused a token for app client-1 (AADSTS50000).');
    expect(refusal('invalid_grant', undefined).message).toContain('(invalid_grant)');
    expect(refusal(undefined, undefined).message).toContain('(no error code)');
  });
});
