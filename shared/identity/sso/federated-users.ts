/**
 * From a verified federated login to a Tessera user. Federated identities are keyed by
 * (tenant, issuer, subject), never by email. An unknown identity is provisioned just in time,
 * only when its email is in a domain the IdP configuration routes here and the tenant has
 * verified (a domain whose verification lapsed provisions nobody), with the
 * configuration's default role; it is never linked to an existing local user by email alone.
 *
 * Provisioning is one transaction (identity link, user, email pointer, audit event) with
 * `attribute_not_exists` conditions: of parallel first logins of one subject exactly one
 * creates the user, the others find the link it wrote and sign in as that user.
 */
import { isoNow } from '../../clock';
import type { Deps } from '../../deps';
import { ConflictError, ForbiddenError, UnauthenticatedError } from '../../errors';
import { sha256Hex } from '../../crypto/opaque-tokens';
import { auditEventPut, recordAuditEvent } from '../../audit/audit-log';
import { metricNames } from '../../observability';
import { failedConditionIndexes } from '../../store/client';
import { getUser, getUserByEmail } from '../../store/identity-items';
import { keys } from '../../store/keys';
import type { ExternalIdentityRecord, IdpConfigRecord, UserRecord } from '../../store/records';
import { routedTenantIdOf } from '../email-domains';
import { emailDomainOf } from './discovery';
import { Email } from '../schemas';
import type { ProviderType } from './schemas';

/** What a verified IdP response says about the person and how they authenticated. */
export interface FederatedLogin {
  providerType: ProviderType;
  issuer: string;
  subject: string;
  email: string | undefined;
  /** false only when the IdP says the email is not verified. */
  emailVerified: boolean;
  amr: string[];
  acr: string | undefined;
  /** Epoch seconds of the authentication at the IdP. */
  authTime: number | undefined;
}

/** The key part of a federated identity: a digest of (issuer, subject), never raw IdP input. */
export const identityDigest = (issuer: string, subject: string) => sha256Hex(`${issuer}\u0000${subject}`);
const MAX_ATTEMPTS = 5;

async function refuse(deps: Deps, tenantId: string, login: FederatedLogin, reason: string, userId: string | null, sourceIp: string): Promise<never> {
  deps.observability.count(metricNames.loginFailure, { method: 'sso' });
  await recordAuditEvent(deps, {
    log: 'identity', tenantId, actorId: userId, action: 'login_failed', targetType: 'user', targetId: userId ?? 'unknown',
    payload: { method: 'sso', provider_type: login.providerType, idp_issuer: login.issuer, reason, amr: login.amr, acr: login.acr ?? null }, sourceIp,
  });
  if (reason === 'email_in_use') throw new ConflictError('An account with this email already exists in the tenant: sign in to it with its password, then link this identity provider account with POST /v1/me/federated-identities/link');
  if (reason === 'disabled_user') throw new UnauthenticatedError('This account is disabled');
  throw new ForbiddenError('No account can be provisioned for this identity: its email domain is not routed to this identity provider');
}

export async function resolveFederatedUser(deps: Deps, idp: IdpConfigRecord, login: FederatedLogin, sourceIp: string): Promise<{ user: UserRecord; provisioned: boolean }> {
  const tenantId = idp.tenant_id;
  const linkKey = keys.externalIdentity(tenantId, identityDigest(login.issuer, login.subject));
  for (let attempt = 1; ; attempt++) {
    const link = await deps.table.get<ExternalIdentityRecord>(linkKey);
    if (link) {
      const user = await getUser(deps, tenantId, link.user_id);
      if (!user || user.status !== 'active') return refuse(deps, tenantId, login, 'disabled_user', link.user_id, sourceIp);
      return { user, provisioned: false };
    }

    // The IdP's email is input like any other: an over-long or malformed one is not routed.
    const parsed = Email.safeParse(login.email ?? '');
    const email = parsed.success ? parsed.data : undefined;
    if (!email || !login.emailVerified || !idp.email_domains.includes(emailDomainOf(email))) return refuse(deps, tenantId, login, 'domain_not_routed', null, sourceIp);
    if ((await routedTenantIdOf(deps, emailDomainOf(email))) !== tenantId) return refuse(deps, tenantId, login, 'domain_not_routed', null, sourceIp);
    if (await getUserByEmail(deps, tenantId, email)) {
      // A parallel first login of this subject may have provisioned the user since the link was read.
      if (await deps.table.get<ExternalIdentityRecord>(linkKey)) continue;
      return refuse(deps, tenantId, login, 'email_in_use', null, sourceIp);
    }

    const now = isoNow(deps.clock);
    const user: UserRecord = {
      id: deps.ids.next('usr'),
      tenant_id: tenantId,
      email,
      status: 'active',
      roles: { [idp.default_workspace_id]: idp.default_role },
      tenant_admin: false,
      default_workspace_id: idp.default_workspace_id,
      mfa_enrolled: false,
      federated: true,
      created_at: now,
      updated_at: now,
      version: 1,
    };
    const identity: ExternalIdentityRecord = { id: deps.ids.next('ext'), tenant_id: tenantId, user_id: user.id, provider_type: login.providerType, issuer: login.issuer, subject: login.subject, created_at: now };
    const notExists = { expression: 'attribute_not_exists(PK)' };
    try {
      await deps.table.transact([
        deps.table.putItem({ ...linkKey, ...identity }, notExists),
        deps.table.putItem({ ...keys.userEmail(tenantId, email), user_id: user.id }, notExists),
        deps.table.putItem({ ...keys.user(tenantId, user.id), ...user }, notExists),
        auditEventPut(deps, {
          log: 'identity', tenantId, workspaceId: user.default_workspace_id, actorId: null, action: 'user_provisioned', targetType: 'user', targetId: user.id,
          payload: { method: 'sso', provider_type: login.providerType, idp_issuer: login.issuer, email, role: idp.default_role, workspace_id: user.default_workspace_id }, sourceIp,
        }).item,
      ]);
      return { user, provisioned: true };
    } catch (error) {
      const failed = failedConditionIndexes(error);
      const cancelled = error instanceof Error && error.name === 'TransactionCanceledException';
      // A parallel first login won (the link or the email pointer exists now), or the
      // transactions collided: look again; the winner's link is then found above.
      if (!cancelled || attempt >= MAX_ATTEMPTS) throw error;
      if (failed.length === 0) await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
}

/** RFC 8176 values that stand for a second factor or a multi-factor authentication. */
const MFA_METHODS = new Set(['mfa', 'otp', 'hwk', 'swk', 'sms', 'tel', 'sc', 'fpt', 'face', 'iris', 'retina', 'vbm']);

/** The IdP owns MFA for SSO users: an `mfa_at` is set when its methods show a second factor. */
export const idpDidMfa = (amr: readonly string[]) => amr.some((m) => MFA_METHODS.has(m));
