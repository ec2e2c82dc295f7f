/**
 * The catalogue of identity audit actions: every kind of event the tenant's identity log holds
 * (`GET /v1/tenants/{id}/audit-events`). A writer of the identity log can only name an action
 * listed here (the type of `AuditEventInput.action`), and the API test drives one of each
 * through the HTTP surface and reads it back, so a new kind is added here first.
 */
export const identityAuditActions = {
  // sign-in
  login_succeeded: 'A sign-in completed (password or SSO); payload: method, amr, mfa method, IdP data',
  login_failed: 'A sign-in was refused; payload: method and reason; with the source address',
  login_mfa_pending: 'A password was right and the MFA step is next (challenge or enrollment)',
  logout: 'A session was ended by its refresh token',
  refresh_token_reused: 'A used refresh token came back: its whole family was revoked',
  // MFA
  mfa_enrolled: 'TOTP enrollment confirmed',
  mfa_enrollment_failed: 'A wrong code confirming TOTP enrollment, or a wrong current password starting one from a session (payload.reason)',
  mfa_challenge_failed: 'A wrong TOTP or backup code answering a challenge (login or step-up)',
  mfa_step_up: 'A signed-in user answered an MFA challenge (step-up); payload: method',
  mfa_backup_codes_regenerated: 'New backup codes replaced the old ones',
  mfa_policy_updated: 'The tenant MFA policy changed',
  mfa_reset: "A tenant admin reset a user's MFA: authenticator and backup codes removed, every session of the user ended",
  // tokens
  token_created: 'A personal access token was created',
  token_rotated: 'A personal access token was replaced by a new one',
  token_revoked: 'A personal access token was revoked',
  token_used: 'A credential was used: a personal access token at most once an hour (payload.kind pat), every refresh token exchange (payload.kind refresh)',
  // passwords
  password_changed: 'A user changed their password',
  password_change_failed: 'A password change with a wrong current password',
  password_reset_requested: 'A reset link was sent',
  password_reset: 'A password was set with a reset link',
  // users, roles, workspaces, tenant
  user_created: 'A tenant admin created a user',
  user_updated: 'A user changed: payload.changed names the fields; a role change carries the workspace, the new and the previous role',
  user_disabled: 'A user was disabled',
  user_enabled: 'A user was enabled again',
  user_provisioned: 'A user was created just in time by an SSO login',
  workspace_created: 'A workspace was created',
  workspace_owner_transferred: 'A workspace changed owner (a promotion it makes is a user_updated of its own)',
  tenant_created: 'The tenant was created (operator CLI or bootstrap)',
  tenant_license_changed: 'The operator changed which integrations the tenant may use (payload: integrations, previous; null = all)',
  // single sign-on
  idp_config_created: 'The tenant IdP configuration was created',
  idp_config_updated: 'The tenant IdP configuration changed',
  idp_config_deleted: 'The tenant IdP configuration was deleted',
  federated_identity_linked: 'A signed-in user linked an IdP identity to their account (an SSO login with a link intent)',
  federated_identity_link_refused: 'A link was refused: payload.reason (another email, an unverified one, linked to another user, user not active)',
  federated_identity_unlinked: 'A tenant admin unlinked a federated identity from a user',
  // email domains
  domain_added: 'A tenant admin added an email domain (pending its DNS TXT proof)',
  domain_verified: 'An email domain was verified: payload.method dns_txt (its TXT record) or operator (the CLI, on the operator\'s word)',
  domain_verification_failed: 'A verification or a re-check did not find the TXT value: payload.check verify|recheck, what was found, whether routing was removed',
  domain_removed: 'A tenant admin removed an email domain',
} as const;

export type IdentityAuditAction = keyof typeof identityAuditActions;

export const identityAuditActionNames = Object.keys(identityAuditActions) as IdentityAuditAction[];
