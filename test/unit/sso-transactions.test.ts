/**
 * Logins in flight (shared/identity/sso/login-transactions.ts) on an in-memory table: a state
 * of another shape never reaches the table; a state is consumed once, by its own tenant,
 * while fresh; a table failure that is no lost race is not disguised as a refusal.
 */
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../shared/deps';
import { consumeSsoTransaction, createSsoTransaction, newSsoState, pkceVerifierOf, SsoResponseError } from '../../shared/identity/sso/login-transactions';
import { MovableClock } from '../support/movable-clock';

interface Call {
  op: 'put' | 'delete';
  input: { Key?: Record<string, string>; Item?: Record<string, unknown>; ConditionExpression?: string; ReturnValues?: string };
}

function harness(options: { deleteFailure?: Error; deleteAnswersNothing?: boolean } = {}) {
  const clock = new MovableClock();
  const items = new Map<string, Record<string, unknown>>();
  const calls: Call[] = [];
  const id = (key: Record<string, unknown>) => `${String(key.PK)}|${String(key.SK)}`;
  const table = {
    put: (input: Call['input']) => {
      calls.push({ op: 'put', input });
      items.set(id(input.Item!), input.Item!);
      return Promise.resolve({});
    },
    delete: (input: Call['input']) => {
      calls.push({ op: 'delete', input });
      if (options.deleteFailure) return Promise.reject(options.deleteFailure);
      const old = items.get(id(input.Key!));
      if (!old) return Promise.reject(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }));
      items.delete(id(input.Key!));
      return Promise.resolve(options.deleteAnswersNothing ? {} : { Attributes: old });
    },
  };
  const envelope = {
    encrypt: (plaintext: string, context: Record<string, string>) => Promise.resolve(`sealed:${JSON.stringify(context)}:${Buffer.from(plaintext).toString('base64')}`),
    decrypt: (sealed: string, context: Record<string, string>) => {
      const [, ctx, body] = /^sealed:(.*):([^:]*)$/.exec(sealed)!;
      return ctx === JSON.stringify(context) ? Promise.resolve(Buffer.from(body!, 'base64').toString()) : Promise.reject(new Error('wrong context'));
    },
  };
  // The only part these use cases take from deps is the envelope crypto.
  const deps = { clock, table, part: () => ({ get: () => Promise.resolve(envelope) }) } as unknown as Deps;
  return { deps, clock, items, calls };
}

const client = { redirectUri: 'https://app.example/done', state: 'client-state' };

describe('SSO login transactions', () => {
  it('a state is consumed once, by its tenant, while fresh, without its keys; the PKCE verifier comes back under its context', async () => {
    const h = harness();
    const state = await createSsoTransaction(h.deps, { tenantId: 'ten_a', providerType: 'oidc', client, nonce: 'n-1', codeVerifier: 'verifier-1' });
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the digest is stored.
    expect(JSON.stringify([...h.items.values()])).not.toContain(state);
    const record = await consumeSsoTransaction(h.deps, 'ten_a', state);
    expect(record).toMatchObject({ tenant_id: 'ten_a', provider_type: 'oidc', redirect_uri: client.redirectUri, client_state: 'client-state', nonce: 'n-1', saml_request_id: null });
    expect(record).not.toHaveProperty('PK');
    expect(await pkceVerifierOf(h.deps, record)).toBe('verifier-1');
    await expect(consumeSsoTransaction(h.deps, 'ten_a', state)).rejects.toBeInstanceOf(SsoResponseError);
  });

  it('refuses a state of another shape without asking the table', async () => {
    const h = harness();
    for (const state of [undefined, '', 'short', `${newSsoState()}x`, newSsoState().replace(/^./, '+')]) {
      await expect(consumeSsoTransaction(h.deps, 'ten_a', state)).rejects.toBeInstanceOf(SsoResponseError);
    }
    expect(h.calls).toEqual([]);
  });

  it("refuses another tenant's transaction and an expired one, burning both", async () => {
    const h = harness();
    const other = await createSsoTransaction(h.deps, { tenantId: 'ten_b', providerType: 'saml', client, samlRequestId: '_r1' });
    await expect(consumeSsoTransaction(h.deps, 'ten_a', other)).rejects.toBeInstanceOf(SsoResponseError);
    const late = await createSsoTransaction(h.deps, { tenantId: 'ten_a', providerType: 'saml', client, samlRequestId: '_r2' });
    h.clock.advance(10 * 60);
    await expect(consumeSsoTransaction(h.deps, 'ten_a', late)).rejects.toBeInstanceOf(SsoResponseError);
    expect(h.items.size).toBe(0);
  });

  it('a delete that answers no item refuses; a table failure that is no lost race is thrown as it is', async () => {
    const empty = harness({ deleteAnswersNothing: true });
    const state = await createSsoTransaction(empty.deps, { tenantId: 'ten_a', providerType: 'oidc', client });
    await expect(consumeSsoTransaction(empty.deps, 'ten_a', state)).rejects.toBeInstanceOf(SsoResponseError);
    const down = harness({ deleteFailure: Object.assign(new Error('table down'), { name: 'InternalServerError' }) });
    const state2 = await createSsoTransaction(down.deps, { tenantId: 'ten_a', providerType: 'oidc', client });
    const error = await consumeSsoTransaction(down.deps, 'ten_a', state2).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SsoResponseError);
    expect(error).toMatchObject({ message: 'table down' });
  });

  it('a transaction without a PKCE verifier (SAML) has none to give', async () => {
    const h = harness();
    const record = await consumeSsoTransaction(h.deps, 'ten_a', await createSsoTransaction(h.deps, { tenantId: 'ten_a', providerType: 'saml', client, samlRequestId: '_r3' }));
    expect(record.code_verifier_encrypted).toBeNull();
    await expect(pkceVerifierOf(h.deps, record)).rejects.toBeInstanceOf(SsoResponseError);
  });
});
