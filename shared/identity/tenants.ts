/**
 * Tenant creation (bootstrap and the ops CLI): the tenant, its slug and email domains (verified
 * on the operator's word, see email-domains.ts), the default MFA policy, a first workspace and
 * its admin, in one transaction.
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { hashPassword } from '../crypto/passwords';
import { failedConditionIndexes } from '../store/client';
import { keys } from '../store/keys';
import type { TenantRecord, UserRecord, WorkspaceRecord } from '../store/records';
import { operatorVerifiedDomainItems } from './email-domains';
import { defaultMfaPolicy } from './mfa-policy';
import { assertAcceptablePassword } from './password-policy';
import { DomainName, Email, TenantSlug } from './schemas';
import { parseWith } from '../schemas/validation';
import { DisplayText } from '../schemas/field-schemas';
import * as z from 'zod/mini';

export interface CreateTenantInput {
  slug: string;
  name: string;
  emailDomains: string[];
  adminEmail: string;
  adminPassword: string | undefined;
  workspaceName?: string;
}

const CreateTenantSchema = z.object({
  slug: TenantSlug,
  name: DisplayText(128),
  emailDomains: z.array(DomainName).check(z.maxLength(20)),
  adminEmail: Email,
});

export async function createTenant(deps: Deps, input: CreateTenantInput) {
  parseWith(CreateTenantSchema, { slug: input.slug, name: input.name, emailDomains: input.emailDomains, adminEmail: input.adminEmail });
  if (input.adminPassword !== undefined) assertAcceptablePassword(input.adminPassword);
  const now = isoNow(deps.clock);
  const domains = [...new Set(parseWith(z.array(DomainName), input.emailDomains))];
  const tenant: TenantRecord = { id: deps.ids.next('ten'), slug: input.slug, name: input.name, email_domains: domains, created_at: now, updated_at: now };
  const workspace: WorkspaceRecord = { id: deps.ids.next('ws'), tenant_id: tenant.id, name: input.workspaceName ?? 'Default', owner_id: '', created_at: now, updated_at: now };
  const admin: UserRecord = {
    id: deps.ids.next('usr'),
    tenant_id: tenant.id,
    email: input.adminEmail.toLowerCase(),
    status: 'active',
    ...(input.adminPassword !== undefined ? { password_hash: await hashPassword(input.adminPassword) } : {}),
    roles: { [workspace.id]: 'admin' },
    tenant_admin: true,
    default_workspace_id: workspace.id,
    mfa_enrolled: false,
    created_at: now,
    updated_at: now,
    version: 1,
  };
  workspace.owner_id = admin.id;
  const notExists = { expression: 'attribute_not_exists(PK)' };
  const t = deps.table;
  const items = [
    t.putItem({ ...keys.tenantSlug(tenant.slug), tenant_id: tenant.id }, notExists),
    // Indexes 1..domains.length: the routing pointers (see the catch below).
    ...operatorVerifiedDomainItems(deps, tenant.id, domains),
    t.putItem({ ...keys.tenant(tenant.id), ...tenant }, notExists),
    t.putItem({ ...keys.mfaPolicy(tenant.id), ...defaultMfaPolicy(tenant.id, now) }),
    t.putItem({ ...keys.workspace(tenant.id, workspace.id), ...workspace }, notExists),
    t.putItem({ ...keys.workspaceCount(tenant.id), count: 1 }),
    t.putItem({ ...keys.user(tenant.id, admin.id), ...admin }, notExists),
    t.putItem({ ...keys.userEmail(tenant.id, admin.email), user_id: admin.id }, notExists),
    auditEventPut(deps, { log: 'identity', tenantId: tenant.id, workspaceId: workspace.id, actorId: null, action: 'tenant_created', targetType: 'tenant', targetId: tenant.id, payload: { slug: tenant.slug, admin_id: admin.id, email_domains: domains, domains_verified_by: 'operator' } }).item,
  ];
  try {
    await t.transact(items);
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.includes(0)) throw new ConflictError(`The tenant slug ${tenant.slug} is taken`);
    if (failed.some((i) => i >= 1 && i <= domains.length)) throw new ConflictError('An email domain is already claimed by another tenant');
    throw error;
  }
  return { tenant, admin: { id: admin.id, email: admin.email }, workspace };
}
