/** How users are shown: never a hash, always the role in the workspace asked about. */
import type { UserRecord } from '../store/records';
import type { Role } from '../store/identity-enums';

export interface UserView {
  id: string;
  tenant_id: string;
  email: string;
  username: string | null;
  status: 'active' | 'disabled';
  workspace_id: string | null;
  role: Role | null;
  tenant_admin: boolean;
  memberships: { workspace_id: string; role: Role }[];
  mfa_enrolled: boolean;
  created_at: string;
  updated_at: string;
}

export function toUserView(user: UserRecord, workspaceId: string): UserView {
  const role = user.roles[workspaceId];
  return {
    id: user.id,
    tenant_id: user.tenant_id,
    email: user.email,
    username: user.username ?? null,
    status: user.status,
    workspace_id: role ? workspaceId : null,
    role: role ?? null,
    tenant_admin: user.tenant_admin,
    memberships: Object.entries(user.roles).map(([workspace_id, r]) => ({ workspace_id, role: r })),
    mfa_enrolled: user.mfa_enrolled,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}
