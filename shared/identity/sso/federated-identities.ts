/**
 * Account linking: the federated identities (issuer, subject) a user signs in with.
 *
 * A link needs both proofs: a signed-in session of the user (it starts the link transaction,
 * bound to the user's id) and a completed SSO login in which the IdP asserts the identity for
 * that transaction. The link is refused when the identity already belongs to another user, or
 * when the IdP's email is not verified or is not the user's own email. Tenant admins list and
 * unlink a user's identities; users list their own. Links and unlinks are audited.
 */
import { isoNow } from '../../clock';
import type { Deps } from '../../deps';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors';
import { auditEventPut, recordAuditEvent } from '../../audit/audit-log';
import { isConditionFailure } from '../../store/client';
import { getUser } from '../../store/identity-items';
import { keys } from '../../store/keys';
import type { ExternalIdentityRecord, IdpConfigRecord } from '../../store/records';
import type { Page, PageRequest } from '../../store/table-client';
import type { Principal } from '../principal';
import { identityDigest, type FederatedLogin } from './federated-users';

export interface FederatedIdentityView {
  id: string;
  provider_type: 'oidc' | 'saml';
  issuer: string;
  subject: string;
  created_at: string;
}

const toView = (r: ExternalIdentityRecord): FederatedIdentityView => ({ id: r.id, provider_type: r.provider_type, issuer: r.issuer, subject: r.subject, created_at: r.created_at });

async function refuseLink(deps: Deps, tenantId: string, userId: string, login: FederatedLogin, reason: string, sourceIp: string, error: Error): Promise<never> {
  await recordAuditEvent(deps, {
    log: 'identity', tenantId, actorId: userId, action: 'federated_identity_link_refused', targetType: 'user', targetId: userId,
    payload: { provider_type: login.providerType, idp_issuer: login.issuer, reason }, sourceIp,
  });
  throw error;
}

/**
 * The callback of a link transaction: links the identity the IdP asserted to `userId` (the
 * user who started the link while signed in). Linking an identity the user already has is a
 * no-op that answers the same identity.
 */
export async function linkFederatedIdentity(deps: Deps, idp: IdpConfigRecord, login: FederatedLogin, userId: string, sourceIp: string): Promise<FederatedIdentityView> {
  const tenantId = idp.tenant_id;
  const user = await getUser(deps, tenantId, userId);
  if (!user || user.status !== 'active') return refuseLink(deps, tenantId, userId, login, 'user_not_active', sourceIp, new ForbiddenError('The account that started the link is not active'));
  const linkKey = keys.externalIdentity(tenantId, identityDigest(login.issuer, login.subject));
  const existing = await deps.table.get<ExternalIdentityRecord>(linkKey);
  if (existing) {
    if (existing.user_id === userId) return toView(existing);
    return refuseLink(deps, tenantId, userId, login, 'identity_linked_to_another_user', sourceIp, new ConflictError('This identity provider account is already linked to another account of the tenant'));
  }
  // The IdP must vouch for the same person: its verified email is the account's email.
  if (!login.emailVerified || (login.email ?? '').toLowerCase() !== user.email.toLowerCase()) {
    return refuseLink(deps, tenantId, userId, login, 'email_mismatch', sourceIp, new ForbiddenError('The identity provider account has another email (or an unverified one) than the account it is to be linked to'));
  }
  const record: ExternalIdentityRecord = {
    id: deps.ids.next('ext'), tenant_id: tenantId, user_id: userId, provider_type: login.providerType, issuer: login.issuer, subject: login.subject, created_at: isoNow(deps.clock),
  };
  try {
    await deps.table.transact([
      deps.table.putItem({ ...linkKey, ...record }, { expression: 'attribute_not_exists(PK)' }),
      auditEventPut(deps, {
        log: 'identity', tenantId, actorId: userId, action: 'federated_identity_linked', targetType: 'user', targetId: userId,
        payload: { federated_identity_id: record.id, provider_type: record.provider_type, idp_issuer: record.issuer }, sourceIp,
      }).item,
    ]);
  } catch (error) {
    // A parallel link or first login of this identity won: answer as if it had come first.
    if (!(error instanceof Error && error.name === 'TransactionCanceledException')) throw error;
    const winner = await deps.table.get<ExternalIdentityRecord>(linkKey);
    if (winner?.user_id === userId) return toView(winner);
    return refuseLink(deps, tenantId, userId, login, 'identity_linked_to_another_user', sourceIp, new ConflictError('This identity provider account is already linked to another account of the tenant'));
  }
  return toView(record);
}

function identitiesOfUser(deps: Deps, tenantId: string, userId: string, page: PageRequest, identityId?: string): Promise<Page<ExternalIdentityRecord>> {
  return deps.table.queryPrefix<ExternalIdentityRecord>(keys.externalIdentities(tenantId), page, {
    newestFirst: false,
    filter: identityId
      ? { expression: 'user_id = :user AND id = :id', values: { ':user': userId, ':id': identityId } }
      : { expression: 'user_id = :user', values: { ':user': userId } },
  });
}

export async function listFederatedIdentities(deps: Deps, principal: Principal, userId: string, page: PageRequest): Promise<Page<FederatedIdentityView>> {
  if (!(await getUser(deps, principal.tenantId, userId))) throw new NotFoundError('user');
  const result = await identitiesOfUser(deps, principal.tenantId, userId, page);
  return { items: result.items.map(toView), nextCursor: result.nextCursor };
}

/** Removes a link: the user no longer signs in with that IdP account (a later SSO login of it is a new person). */
export async function unlinkFederatedIdentity(deps: Deps, principal: Principal, userId: string, identityId: string, sourceIp: string): Promise<void> {
  if (!(await getUser(deps, principal.tenantId, userId))) throw new NotFoundError('user');
  const found = (await identitiesOfUser(deps, principal.tenantId, userId, { limit: 100 }, identityId)).items[0];
  if (!found) throw new NotFoundError('federated identity');
  try {
    await deps.table.transact([
      deps.table.deleteItem({
        Key: keys.externalIdentity(principal.tenantId, identityDigest(found.issuer, found.subject)),
        ConditionExpression: 'user_id = :user AND id = :id',
        ExpressionAttributeValues: { ':user': userId, ':id': identityId },
      }),
      auditEventPut(deps, {
        log: 'identity', tenantId: principal.tenantId, workspaceId: principal.workspaceId, actorId: principal.userId, action: 'federated_identity_unlinked', targetType: 'user', targetId: userId,
        payload: { federated_identity_id: found.id, provider_type: found.provider_type, idp_issuer: found.issuer }, sourceIp,
      }).item,
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('federated identity');
    throw error;
  }
}
