/**
 * Building blocks of the API tests: a fresh tenant per test file, logins that walk the real
 * MFA flow over HTTP, and users made through the API as a tenant admin would.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { listIdentityAuditEvents } from '../../shared/audit/audit-log';
import { totpCode } from '../../shared/crypto/totp';
import type { Deps } from '../../shared/deps';
import type { MfaMode, MfaAction } from '../../shared/store/identity-enums';
import { verifyEmailDomainAsOperator } from '../../shared/identity/email-domains';
import { createTenant } from '../../shared/identity/tenants';
import { keys } from '../../shared/store/keys';
import type { AuditEventRecord } from '../../shared/store/records';
import type { MovableClock } from './movable-clock';
import type { HttpClient } from './http-client';

export const PASSWORD = 'correct horse battery staple';

export interface TestTenant {
  tenantId: string;
  slug: string;
  domain: string;
  workspaceId: string;
  admin: { id: string; email: string };
}

export async function createTestTenant(deps: Deps, options: { mfaMode?: MfaMode; requiredActions?: MfaAction[] } = {}): Promise<TestTenant> {
  const suffix = randomBytes(4).toString('hex');
  const slug = `t-${suffix}`;
  const domain = `${suffix}.example.test`;
  const created = await createTenant(deps, { slug, name: `Tenant ${suffix}`, emailDomains: [domain], adminEmail: `admin@${domain}`, adminPassword: PASSWORD });
  if (options.mfaMode) {
    // Policy editing is its own endpoint (MFA issue); the fixture sets the starting point directly.
    const now = new Date().toISOString();
    await deps.table.put({
      Item: {
        ...keys.mfaPolicy(created.tenant.id),
        tenant_id: created.tenant.id,
        mfa_mode: options.mfaMode,
        required_actions: options.requiredActions ?? ['LOGIN', 'CREATE_PAT', 'ROTATE_PAT', 'REVOKE_PAT', 'CHANGE_PASSWORD', 'MANAGE_USERS', 'UPDATE_IDP_CONFIG'],
        created_at: now,
        updated_at: now,
      },
    });
  }
  return { tenantId: created.tenant.id, slug, domain, workspaceId: created.workspace.id, admin: created.admin };
}

/**
 * Makes `domain` a verified domain of the tenant as the operator does (no DNS), so an IdP
 * configuration may list it. `tenant-domains.test.ts` covers verification by DNS itself.
 */
export async function verifyDomainAsOperator(deps: Deps, tenantId: string, domain: string): Promise<void> {
  await verifyEmailDomainAsOperator(deps, tenantId, domain);
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  totpSecret?: string;
  backupCodes?: string[];
}

/** TOTP secrets of enrolled test users, so later logins can answer their challenge. */
export const totpSecrets = new Map<string, string>();

/**
 * Logs in over HTTP and completes whatever MFA the policy asks for (enrolling on first
 * login under REQUIRED). The clock moves one TOTP step after each code so codes never collide.
 */
export async function login(http: HttpClient, clock: MovableClock, email: string, password = PASSWORD, extra: Record<string, unknown> = {}): Promise<Session> {
  const res = await http.request('POST', '/v1/auth/login', { body: { email, password, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const body = res.body as Record<string, unknown>;
  if (!body.mfa_required) return { accessToken: body.access_token as string, refreshToken: body.refresh_token as string };

  const mfaToken = body.mfa_token as string;
  if (body.enrollment_required) {
    const start = await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: mfaToken } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const secret = (start.body as { secret: string }).secret;
    const confirm = await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: mfaToken, code: await totpCode(secret, clock.epochSeconds()) } });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    clock.advance(30);
    totpSecrets.set(email, secret);
    const c = confirm.body as Record<string, unknown>;
    return { accessToken: c.access_token as string, refreshToken: c.refresh_token as string, totpSecret: secret, backupCodes: c.backup_codes as string[] };
  }
  const secret = totpSecrets.get(email);
  if (!secret) throw new Error(`no TOTP secret known for ${email}`);
  const challenge = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await totpCode(secret, clock.epochSeconds()) } });
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
  clock.advance(30);
  const c = challenge.body as Record<string, unknown>;
  return { accessToken: c.access_token as string, refreshToken: c.refresh_token as string, totpSecret: secret };
}

/** Creates a user through the API as `adminToken` and returns its id. */
export async function createUser(http: HttpClient, adminToken: string, input: { email: string; role: string; workspace_id?: string; password?: string; tenant_admin?: boolean }): Promise<string> {
  const res = await http.request('POST', '/v1/users', { token: adminToken, body: { password: PASSWORD, ...input } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

/** Every event of a tenant's identity log (it has no HTTP endpoint), newest first. */
export async function identityAuditEvents(deps: Deps, tenantId: string): Promise<AuditEventRecord[]> {
  const events: AuditEventRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listIdentityAuditEvents(deps, tenantId, { limit: 100, cursor });
    events.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return events;
}
