/** Who is calling, as established from a verified credential. */
import { ForbiddenError } from '../errors';
import type { Role } from '../store/identity-enums';
import type { Permission } from './permissions';

export type Credential =
  | { kind: 'access_token'; jti: string; sessionId: string | undefined; amr: string[]; authTime: number; mfaAt: number | undefined }
  | { kind: 'pat'; tokenId: string };

export interface Principal {
  userId: string;
  tenantId: string;
  /** The workspace the credential acts in; all workspace-owned data is scoped by it. */
  workspaceId: string;
  role: Role | undefined;
  tenantAdmin: boolean;
  /** Effective permissions: the user's permissions in the workspace ∩ the credential's scopes. */
  permissions: Permission[];
  credential: Credential;
}

/** The scope every repository call takes: tenant and workspace from the credential only. */
export interface WorkspaceScope {
  tenantId: string;
  workspaceId: string;
}

/** A tenant-scoped path must name the caller's own tenant; the tenant comes from the credential only. */
export function assertOwnTenant(principal: Principal, tenantId: string): void {
  if (tenantId !== principal.tenantId) throw new ForbiddenError('The path names another tenant');
}

export const scopeOf = (principal: Principal): WorkspaceScope => ({ tenantId: principal.tenantId, workspaceId: principal.workspaceId });
