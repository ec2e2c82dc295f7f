/**
 * THE route table. One entry per endpoint: the CDK stack makes one function and one API route
 * of each, the local host dispatches from it, the OpenAPI document is generated from it.
 * `handler` names the module `functions/<handler>.ts`.
 */
import * as z from 'zod';
import { IdPathSchema, PageQuerySchema } from '../shared/http/common-schemas';
import { requestHeaders, responseHeaders } from '../shared/http/headers';
import { defineRoute, type RouteDefinition } from '../shared/http/route';
import { OpenApiDocumentSchema } from '../shared/openapi/schemas';
import * as connections from '../shared/connections/schemas';
import * as identity from '../shared/identity/schemas';
import * as sso from '../shared/identity/sso/schemas';

const problem = (description: string) => ({ description });
/** A 302 to where the browser goes next. */
const redirectTo = (description: string) => ({ description, headers: { Location: responseHeaders.location } });
/** Answers that carry the resource's version for a later `If-Match`. */
const versioned = { ETag: responseHeaders.etag };
/** `/v1/tenants/{id}/…`: the id must be the caller's own tenant (checked by the use case, 403). */
const TenantPathSchema = IdPathSchema('ten');

export const routes = {
  health: defineRoute({
    method: 'GET', path: '/v1/health', handler: 'health', auth: 'public', tag: 'service',
    summary: 'Liveness and table reachability',
    responses: { 200: { description: 'Healthy', schema: z.object({ status: z.literal('ok') }) }, 503: problem('The table is unreachable') },
  }),
  openapi: defineRoute({
    method: 'GET', path: '/v1/openapi.json', handler: 'openapi', auth: 'public', tag: 'service',
    summary: 'This OpenAPI document',
    responses: { 200: { description: 'OpenAPI 3.1 document', schema: OpenApiDocumentSchema } },
  }),
  jwks: defineRoute({
    method: 'GET', path: '/v1/.well-known/jwks.json', handler: 'jwks', auth: 'public', tag: 'service',
    summary: 'Public keys that verify access tokens',
    responses: { 200: { description: 'JSON Web Key Set', schema: identity.JwksSchema } },
  }),

  login: defineRoute({
    method: 'POST', path: '/v1/auth/login', handler: 'auth-login', auth: 'public', ipRateLimited: true, tag: 'authentication',
    summary: 'Local login with email and password',
    request: { body: identity.LoginBodySchema },
    responses: { 200: { description: 'Tokens, or an MFA step to complete', schema: identity.LoginResponseSchema }, 401: problem('invalid_credentials'), 429: problem('rate_limited') },
  }),
  token: defineRoute({
    method: 'POST', path: '/v1/auth/token', handler: 'auth-token', auth: 'public', ipRateLimited: true, tag: 'authentication',
    summary: 'Exchange a refresh token (rotating it) or an SSO code for tokens',
    request: { body: identity.TokenGrantBodySchema },
    responses: { 200: { description: 'Tokens', schema: identity.TokenResponseSchema }, 401: problem('unauthenticated') },
  }),
  logout: defineRoute({
    method: 'POST', path: '/v1/auth/logout', handler: 'auth-logout', auth: 'public', ipRateLimited: true, tag: 'authentication',
    summary: 'End a session: its refresh token family and the access tokens it holds',
    request: { body: identity.LogoutBodySchema },
    responses: { 204: { description: 'Logged out' } },
  }),
  passwordForgot: defineRoute({
    method: 'POST', path: '/v1/auth/password/forgot', handler: 'auth-password-forgot', auth: 'public', ipRateLimited: true, tag: 'authentication',
    summary: 'Email a password reset link (answers 202 whether or not the account exists)',
    request: { body: identity.PasswordForgotBodySchema },
    responses: { 202: { description: 'Accepted; when the account exists, a reset link is on its way' }, 429: problem('rate_limited') },
  }),
  passwordReset: defineRoute({
    method: 'POST', path: '/v1/auth/password/reset', handler: 'auth-password-reset', auth: 'public', ipRateLimited: true, tag: 'authentication',
    summary: 'Set a new password with the token of a reset link; every refresh token of the user is revoked',
    request: { body: identity.PasswordResetBodySchema },
    responses: { 204: { description: 'Password set' }, 400: problem('validation_failed'), 401: problem('unauthenticated: the link is not valid, used or expired') },
  }),

  // ---- tenant SSO ----------------------------------------------------------------------
  idpGet: defineRoute({
    method: 'GET', path: '/v1/tenants/{id}/idp', handler: 'idp-get', auth: 'bearer', permission: 'idp:manage', tag: 'sso',
    summary: 'Read the tenant IdP configuration (the client secret is write-only)',
    request: { params: TenantPathSchema },
    responses: { 200: { description: 'IdP configuration', schema: sso.IdpConfigSchema }, 404: problem('not_found') },
  }),
  idpCreate: defineRoute({
    method: 'POST', path: '/v1/tenants/{id}/idp', handler: 'idp-create', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
    summary: 'Create the tenant IdP configuration (OIDC and/or SAML, one active)',
    request: { params: TenantPathSchema, body: sso.CreateIdpConfigBodySchema },
    responses: { 201: { description: 'Created', schema: sso.IdpConfigSchema }, 409: problem('conflict') },
  }),
  idpUpdate: defineRoute({
    method: 'PATCH', path: '/v1/tenants/{id}/idp', handler: 'idp-update', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
    summary: 'Change the tenant IdP configuration; omitting client_secret keeps it',
    request: { params: TenantPathSchema, body: sso.UpdateIdpConfigBodySchema },
    responses: { 200: { description: 'IdP configuration', schema: sso.IdpConfigSchema }, 404: problem('not_found'), 409: problem('conflict') },
  }),
  idpDelete: defineRoute({
    method: 'DELETE', path: '/v1/tenants/{id}/idp', handler: 'idp-delete', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
    summary: 'Delete the tenant IdP configuration and release the email domains it claimed',
    request: { params: TenantPathSchema },
    responses: { 204: { description: 'Deleted' }, 404: problem('not_found') },
  }),
  domainsList: defineRoute({
    method: 'GET', path: '/v1/tenants/{id}/domains', handler: 'domains-list', auth: 'bearer', permission: 'idp:manage', tag: 'sso',
    summary: 'The email domains of your tenant and their verification status (tenant admins)',
    request: { params: TenantPathSchema },
    responses: { 200: { description: 'Email domains', schema: identity.EmailDomainListSchema }, 403: problem('forbidden') },
  }),
  domainsCreate: defineRoute({
    method: 'POST', path: '/v1/tenants/{id}/domains', handler: 'domains-create', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
    summary: 'Add an email domain: pending, with the DNS TXT record that proves control of it',
    request: { params: TenantPathSchema, body: identity.AddEmailDomainBodySchema },
    responses: { 201: { description: 'Added (pending)', schema: identity.EmailDomainSchema }, 403: problem('forbidden'), 409: problem('conflict: already added, or verified by another tenant') },
  }),
  domainsVerify: defineRoute({
    method: 'POST', path: '/v1/tenants/{id}/domains/{domain}/verify', handler: 'domains-verify', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
    summary: 'Check the domain\'s TXT record now: verified when it holds the value',
    request: { params: identity.EmailDomainPathSchema },
    responses: {
      200: { description: 'Verified', schema: identity.EmailDomainSchema },
      404: problem('not_found'),
      409: problem('conflict: the record does not hold the value (the detail says what was found), or another tenant verified the domain'),
      503: problem('unavailable: DNS did not answer; nothing changed'),
    },
  }),
  domainsDelete: defineRoute({
    method: 'DELETE', path: '/v1/tenants/{id}/domains/{domain}', handler: 'domains-delete', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
    summary: 'Remove an email domain: it stops routing at once',
    request: { params: identity.EmailDomainPathSchema },
    responses: { 204: { description: 'Removed' }, 404: problem('not_found') },
  }),
  discover: defineRoute({
    method: 'GET', path: '/v1/auth/discover', handler: 'auth-discover', auth: 'public', ipRateLimited: true, tag: 'sso',
    summary: 'Which tenant an email belongs to and how its users sign in (email-domain routing)',
    request: { query: sso.DiscoverQuerySchema },
    responses: { 200: { description: 'Login methods', schema: sso.DiscoverResponseSchema }, 404: problem('not_found') },
  }),
  ssoStart: defineRoute({
    method: 'GET', path: '/v1/auth/sso/{tenant}/start', handler: 'sso-start', auth: 'public', ipRateLimited: true, tag: 'sso',
    summary: 'Begin an SP-initiated login at the tenant IdP (OIDC with PKCE, or a SAML AuthnRequest); redirects',
    request: { params: sso.SsoTenantPathSchema, query: sso.SsoStartQuerySchema },
    responses: { 302: redirectTo('To the identity provider'), 400: problem('validation_failed: e.g. a redirect_uri that is not on the tenant\'s allow-list'), 404: problem('not_found') },
  }),
  ssoCallback: defineRoute({
    method: 'GET', path: '/v1/auth/sso/{tenant}/callback', handler: 'sso-callback', auth: 'public', ipRateLimited: true, tag: 'sso',
    summary: 'OIDC redirect URI: verify the answer, sign the user in, redirect to redirect_uri?code=',
    request: { params: sso.SsoTenantPathSchema, query: sso.SsoCallbackQuerySchema },
    responses: {
      302: redirectTo('To the client application\'s redirect_uri: with `code` (single use, 60 s) after a login, or with `error` and `error_description` when it failed; its `state` either way'),
      401: problem('unauthenticated: no login in flight matches this answer, so there is nowhere to send the browser back to'),
    },
  }),
  ssoCallbackPost: defineRoute({
    method: 'POST', path: '/v1/auth/sso/{tenant}/callback', handler: 'sso-callback-post', auth: 'public', ipRateLimited: true, tag: 'sso',
    summary: 'SAML assertion consumer service (HTTP-POST) and OIDC form_post: verify, sign in, redirect to redirect_uri?code=',
    request: { params: sso.SsoTenantPathSchema, body: sso.SsoCallbackFormSchema, bodyEncoding: 'form' },
    responses: {
      302: redirectTo('To the client application\'s redirect_uri: with `code` (single use, 60 s) after a login, or with `error` and `error_description` when it failed; its `state` either way'),
      401: problem('unauthenticated: no login in flight matches this answer, so there is nowhere to send the browser back to'),
    },
  }),
  ssoMetadata: defineRoute({
    method: 'GET', path: '/v1/auth/sso/{tenant}/metadata', handler: 'sso-metadata', auth: 'public', tag: 'sso',
    summary: 'SAML service provider metadata of the tenant (entity id, assertion consumer service)',
    request: { params: sso.SsoTenantPathSchema },
    responses: { 200: { description: 'SAML metadata', contentType: 'application/samlmetadata+xml', schema: z.string() }, 404: problem('not_found') },
  }),

  mfaEnrollStart: defineRoute({
    method: 'POST', path: '/v1/mfa/enroll/start', handler: 'mfa-enroll-start', auth: 'bearer_or_mfa_token', sessionOnly: true, ipRateLimited: true, tag: 'mfa',
    summary: 'Begin TOTP enrollment (secret, otpauth URI, QR code)',
    request: { body: identity.MfaEnrollStartBodySchema },
    responses: { 200: { description: 'Enrollment material', schema: identity.MfaEnrollStartResponseSchema } },
  }),
  mfaEnrollConfirm: defineRoute({
    method: 'POST', path: '/v1/mfa/enroll/confirm', handler: 'mfa-enroll-confirm', auth: 'bearer_or_mfa_token', sessionOnly: true, ipRateLimited: true, tag: 'mfa',
    summary: 'Confirm TOTP enrollment with a first code; returns backup codes (and tokens when it completes a login)',
    request: { body: identity.MfaEnrollConfirmBodySchema },
    responses: { 200: { description: 'Backup codes', schema: identity.MfaEnrollConfirmResponseSchema } },
  }),
  mfaChallenge: defineRoute({
    method: 'POST', path: '/v1/mfa/challenge', handler: 'mfa-challenge', auth: 'bearer_or_mfa_token', ipRateLimited: true, tag: 'mfa',
    summary: 'Answer an MFA challenge: completes a login (mfa_token) or steps up an access token',
    request: { body: identity.MfaChallengeBodySchema },
    responses: { 200: { description: 'Tokens', schema: identity.TokenResponseSchema }, 401: problem('invalid_credentials') },
  }),
  mfaBackupCodesRegen: defineRoute({
    method: 'POST', path: '/v1/mfa/backup-codes/regen', handler: 'mfa-backup-codes-regen', auth: 'bearer', sessionOnly: true, ipRateLimited: true, tag: 'mfa',
    summary: 'Replace your backup codes (needs an MFA within the last 10 minutes); the old ones stop working',
    responses: { 200: { description: 'The new backup codes, shown only here', schema: identity.BackupCodesResponseSchema }, 401: problem('mfa_required') },
  }),
  mfaPolicyGet: defineRoute({
    method: 'GET', path: '/v1/tenants/{id}/mfa-policy', handler: 'mfa-policy-get', auth: 'bearer', permission: 'mfa_policy:manage', tag: 'mfa',
    summary: 'The tenant MFA policy',
    request: { params: TenantPathSchema },
    responses: { 200: { description: 'MFA policy', schema: identity.MfaPolicySchema }, 403: problem('forbidden') },
  }),
  mfaPolicyUpdate: defineRoute({
    method: 'PATCH', path: '/v1/tenants/{id}/mfa-policy', handler: 'mfa-policy-update', auth: 'bearer', sessionOnly: true, permission: 'mfa_policy:manage', tag: 'mfa',
    summary: 'Change the tenant MFA policy (audited; needs a recent MFA unless the policy is OFF)',
    request: { params: TenantPathSchema, body: identity.UpdateMfaPolicyBodySchema },
    responses: { 200: { description: 'MFA policy', schema: identity.MfaPolicySchema }, 401: problem('mfa_required'), 403: problem('forbidden') },
  }),

  tokensCreate: defineRoute({
    method: 'POST', path: '/v1/tokens', handler: 'tokens-create', auth: 'bearer', sessionOnly: true, permission: 'tokens:manage', mfaAction: 'CREATE_PAT', tag: 'tokens',
    summary: 'Create a personal access token; the token is shown only in this answer',
    request: { body: identity.CreateTokenBodySchema },
    responses: { 201: { description: 'Created', schema: identity.CreatedTokenSchema } },
  }),
  tokensList: defineRoute({
    method: 'GET', path: '/v1/tokens', handler: 'tokens-list', auth: 'bearer', permission: 'tokens:manage', tag: 'tokens',
    summary: 'List your personal access tokens',
    request: { query: PageQuerySchema },
    responses: { 200: { description: 'Tokens', schema: identity.TokenListSchema } },
  }),
  tokensRotate: defineRoute({
    method: 'POST', path: '/v1/tokens/{id}/rotate', handler: 'tokens-rotate', auth: 'bearer', sessionOnly: true, permission: 'tokens:manage', mfaAction: 'ROTATE_PAT', tag: 'tokens',
    summary: 'Replace a personal access token by a new one; the old one is revoked at once',
    request: { params: IdPathSchema('tok') },
    responses: { 201: { description: 'The new token', schema: identity.CreatedTokenSchema }, 404: problem('not_found') },
  }),
  tokensRevoke: defineRoute({
    method: 'DELETE', path: '/v1/tokens/{id}', handler: 'tokens-revoke', auth: 'bearer', permission: 'tokens:manage', mfaAction: 'REVOKE_PAT', tag: 'tokens',
    summary: 'Revoke a personal access token',
    request: { params: IdPathSchema('tok') },
    responses: { 204: { description: 'Revoked' }, 404: problem('not_found') },
  }),

  permissionsList: defineRoute({
    method: 'GET', path: '/v1/permissions', handler: 'permissions-list', auth: 'bearer', tag: 'permissions',
    summary: 'The permission registry',
    responses: { 200: { description: 'Permissions', schema: identity.PermissionListSchema } },
  }),

  me: defineRoute({
    method: 'GET', path: '/v1/me', handler: 'me-get', auth: 'bearer', tag: 'users',
    summary: 'The current user in the credential\'s workspace',
    responses: { 200: { description: 'Current user', schema: identity.MeSchema } },
  }),
  mePassword: defineRoute({
    method: 'POST', path: '/v1/me/password', handler: 'me-password', auth: 'bearer', sessionOnly: true, mfaAction: 'CHANGE_PASSWORD', tag: 'users',
    summary: 'Change your password (needs the current one); every other session ends, personal access tokens stay',
    request: { body: identity.PasswordChangeBodySchema },
    responses: { 204: { description: 'Password changed; every other session of the user ended' }, 401: problem('invalid_credentials or mfa_required') },
  }),
  meFederatedIdentitiesList: defineRoute({
    method: 'GET', path: '/v1/me/federated-identities', handler: 'me-federated-identities-list', auth: 'bearer', tag: 'users',
    summary: 'The identity provider accounts linked to your account (ordered by identity, not by time)',
    request: { query: PageQuerySchema },
    responses: { 200: { description: 'Federated identities', schema: sso.FederatedIdentityListSchema } },
  }),
  meFederatedIdentityLink: defineRoute({
    method: 'POST', path: '/v1/me/federated-identities/link', handler: 'me-federated-identity-link', auth: 'bearer', sessionOnly: true, ipRateLimited: true, tag: 'users',
    summary: 'Begin linking an identity provider account to your account: an SSO login at the tenant IdP whose callback links instead of signing in',
    request: { body: sso.FederatedIdentityLinkBodySchema },
    responses: {
      200: { description: 'Where to send the browser', schema: sso.FederatedIdentityLinkResponseSchema },
      400: problem('validation_failed: e.g. a redirect_uri that is not on the tenant\'s list of allowed redirect URIs'),
      403: problem('forbidden: a personal access token cannot link identities'),
      404: problem('not_found: the tenant has no active single sign-on'),
    },
  }),
  usersList: defineRoute({
    method: 'GET', path: '/v1/users', handler: 'users-list', auth: 'bearer', permission: 'users:read', tag: 'users',
    summary: 'List users of the tenant',
    request: { query: PageQuerySchema },
    responses: { 200: { description: 'Users', schema: identity.UserListSchema } },
  }),
  usersCreate: defineRoute({
    method: 'POST', path: '/v1/users', handler: 'users-create', auth: 'bearer', permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
    summary: 'Create a user with a role in a workspace',
    request: { body: identity.CreateUserBodySchema },
    responses: { 201: { description: 'Created', schema: identity.UserSchema }, 409: problem('conflict') },
  }),
  usersGet: defineRoute({
    method: 'GET', path: '/v1/users/{id}', handler: 'users-get', auth: 'bearer', permission: 'users:read', tag: 'users',
    summary: 'Read a user',
    request: { params: IdPathSchema('usr') },
    responses: { 200: { description: 'User', schema: identity.UserSchema }, 404: problem('not_found') },
  }),
  usersUpdate: defineRoute({
    method: 'PATCH', path: '/v1/users/{id}', handler: 'users-update', auth: 'bearer', permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
    summary: 'Change a user\'s email, role in a workspace, or tenant administration',
    request: { params: IdPathSchema('usr'), body: identity.UpdateUserBodySchema },
    responses: { 200: { description: 'User', schema: identity.UserSchema }, 404: problem('not_found'), 409: problem('conflict') },
  }),
  usersDisable: defineRoute({
    method: 'POST', path: '/v1/users/{id}/disable', handler: 'users-disable', auth: 'bearer', permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
    summary: 'Disable a user; every credential of the user stops working at once',
    request: { params: IdPathSchema('usr') },
    responses: { 200: { description: 'User', schema: identity.UserSchema }, 404: problem('not_found') },
  }),

  usersEnable: defineRoute({
    method: 'POST', path: '/v1/users/{id}/enable', handler: 'users-enable', auth: 'bearer', permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
    summary: 'Enable a disabled user again; the user signs in anew (tokens from before stay refused)',
    request: { params: IdPathSchema('usr') },
    responses: { 200: { description: 'User', schema: identity.UserSchema }, 404: problem('not_found') },
  }),

  userFederatedIdentitiesList: defineRoute({
    method: 'GET', path: '/v1/users/{id}/federated-identities', handler: 'user-federated-identities-list', auth: 'bearer', permission: 'users:manage', tag: 'users',
    summary: 'The identity provider accounts linked to a user (tenant admins; ordered by identity, not by time)',
    request: { params: IdPathSchema('usr'), query: PageQuerySchema },
    responses: { 200: { description: 'Federated identities', schema: sso.FederatedIdentityListSchema }, 404: problem('not_found') },
  }),
  userFederatedIdentityUnlink: defineRoute({
    method: 'DELETE', path: '/v1/users/{id}/federated-identities/{identity_id}', handler: 'user-federated-identity-unlink', auth: 'bearer', permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
    summary: 'Unlink an identity provider account from a user (audited); it no longer signs in as that user',
    request: { params: sso.UserFederatedIdentityPathSchema },
    responses: { 204: { description: 'Unlinked' }, 404: problem('not_found') },
  }),

  workspacesList: defineRoute({
    method: 'GET', path: '/v1/workspaces', handler: 'workspaces-list', auth: 'bearer', tag: 'workspaces',
    summary: 'Workspaces you belong to (all of them for a tenant admin)',
    request: { query: PageQuerySchema },
    responses: { 200: { description: 'Workspaces', schema: identity.WorkspaceListSchema } },
  }),
  workspacesCreate: defineRoute({
    method: 'POST', path: '/v1/workspaces', handler: 'workspaces-create', auth: 'bearer', permission: 'workspaces:manage', tag: 'workspaces',
    summary: 'Create a workspace owned by you',
    request: { body: identity.CreateWorkspaceBodySchema },
    responses: { 201: { description: 'Created', schema: identity.WorkspaceSchema } },
  }),
  workspacesOwnerTransfer: defineRoute({
    method: 'POST', path: '/v1/workspaces/{id}/owner-transfer', handler: 'workspaces-owner-transfer', auth: 'bearer', permission: 'workspaces:manage', tag: 'workspaces',
    summary: 'Transfer a workspace to another active user of the tenant (audited)',
    request: { params: IdPathSchema('ws'), body: identity.OwnerTransferBodySchema },
    responses: { 200: { description: 'Workspace', schema: identity.WorkspaceSchema }, 404: problem('not_found') },
  }),

  integrationsList: defineRoute({
    method: 'GET', path: '/v1/integrations', handler: 'integrations-list', auth: 'bearer', permission: 'integrations:read', tag: 'catalog',
    summary: 'The catalog of discovery integrations, with their configuration and scope schemas',
    responses: { 200: { description: 'Integrations', schema: connections.IntegrationListSchema } },
  }),
  connectionsList: defineRoute({
    method: 'GET', path: '/v1/connections', handler: 'connections-list', auth: 'bearer', permission: 'connections:read', tag: 'connections',
    summary: 'Connections of your workspace, newest first',
    request: { query: connections.ConnectionListQuerySchema },
    responses: { 200: { description: 'Connections', schema: connections.ConnectionListSchema } },
  }),
  connectionsCreate: defineRoute({
    method: 'POST', path: '/v1/connections', handler: 'connections-create', auth: 'bearer', permission: 'connections:write', tag: 'connections',
    summary: 'Create a connection (honours Idempotency-Key); the configuration is write-only',
    request: { body: connections.CreateConnectionBodySchema, headers: { 'Idempotency-Key': requestHeaders.idempotencyKey } },
    responses: {
      201: { description: 'Created (or, for a retry with the same Idempotency-Key and body, the connection the first request created)', schema: connections.ConnectionSchema, headers: versioned },
      409: problem('conflict: a request with this Idempotency-Key is still in progress'),
      422: problem('unprocessable: scope or configuration do not fit the integration, or the Idempotency-Key was used with another body'),
    },
  }),
  connectionsGet: defineRoute({
    method: 'GET', path: '/v1/connections/{id}', handler: 'connections-get', auth: 'bearer', permission: 'connections:read', tag: 'connections',
    summary: 'Read a connection (never its configuration); answers an ETag',
    request: { params: connections.ConnectionPathSchema },
    responses: { 200: { description: 'Connection', schema: connections.ConnectionSchema, headers: versioned }, 404: problem('not_found') },
  }),
  connectionsUpdate: defineRoute({
    method: 'PATCH', path: '/v1/connections/{id}', handler: 'connections-update', auth: 'bearer', permission: 'connections:write', tag: 'connections',
    summary: 'Change a connection; omitting configuration keeps it; If-Match honoured',
    request: { params: connections.ConnectionPathSchema, body: connections.UpdateConnectionBodySchema, headers: { 'If-Match': requestHeaders.ifMatch } },
    responses: { 200: { description: 'Connection', schema: connections.ConnectionSchema, headers: versioned }, 404: problem('not_found'), 412: problem('precondition_failed: If-Match names a version that is no longer current'), 422: problem('unprocessable: scope or configuration do not fit the integration') },
  }),
  connectionsDelete: defineRoute({
    method: 'DELETE', path: '/v1/connections/{id}', handler: 'connections-delete', auth: 'bearer', permission: 'connections:write', tag: 'connections',
    summary: 'Delete a connection; If-Match honoured',
    request: { params: connections.ConnectionPathSchema, headers: { 'If-Match': requestHeaders.ifMatch } },
    responses: { 204: { description: 'Deleted' }, 404: problem('not_found'), 412: problem('precondition_failed: If-Match names a version that is no longer current') },
  }),
  connectionsTest: defineRoute({
    method: 'POST', path: '/v1/connections/{id}/test', handler: 'connections-test', auth: 'bearer', permission: 'connections:test', tag: 'connections',
    summary: 'Test a connection against its provider now',
    request: { params: connections.ConnectionPathSchema },
    responses: { 200: { description: 'Test result', schema: connections.ConnectionTestResultSchema }, 404: problem('not_found') },
  }),
  connectionTestsList: defineRoute({
    method: 'GET', path: '/v1/connections/{id}/tests', handler: 'connection-tests-list', auth: 'bearer', permission: 'connections:read', tag: 'connections',
    summary: 'Test history of a connection, newest first',
    request: { params: connections.ConnectionPathSchema, query: PageQuerySchema },
    responses: { 200: { description: 'Tests', schema: connections.ConnectionTestListSchema }, 404: problem('not_found') },
  }),
  connectionRunsCreate: defineRoute({
    method: 'POST', path: '/v1/connections/{id}/runs', handler: 'connection-runs-create', auth: 'bearer', permission: 'connections:run', tag: 'runs',
    summary: 'Start a discovery run now; 409 while another run of the connection is queued or running',
    request: { params: connections.ConnectionPathSchema },
    responses: {
      202: { description: 'Queued; Location is the run\'s URL', schema: connections.RunSchema, headers: { Location: responseHeaders.createdLocation } },
      404: problem('not_found'),
      409: problem('conflict: a run of this connection is already queued or running (the detail names it)'),
    },
  }),
  connectionRunsList: defineRoute({
    method: 'GET', path: '/v1/connections/{id}/runs', handler: 'connection-runs-list', auth: 'bearer', permission: 'connections:read', tag: 'runs',
    summary: 'Discovery run history of a connection, newest first',
    request: { params: connections.ConnectionPathSchema, query: PageQuerySchema },
    responses: { 200: { description: 'Runs', schema: connections.ConnectionRunListSchema }, 404: problem('not_found') },
  }),
  connectionRunsGet: defineRoute({
    method: 'GET', path: '/v1/connections/{id}/runs/{run_id}', handler: 'connection-runs-get', auth: 'bearer', permission: 'connections:read', tag: 'runs',
    summary: 'One discovery run: status, counts, changes, errors and timings',
    request: { params: connections.RunPathSchema },
    responses: { 200: { description: 'Run', schema: connections.RunSchema }, 404: problem('not_found') },
  }),
  connectionRunChangesList: defineRoute({
    method: 'GET', path: '/v1/connections/{id}/runs/{run_id}/changes', handler: 'connection-run-changes-list', auth: 'bearer', permission: 'connections:read', tag: 'runs',
    summary: 'What a run found different from the previous one (entities added, removed, changed; relationships added, removed)',
    request: { params: connections.RunPathSchema, query: PageQuerySchema },
    responses: { 200: { description: 'Changes', schema: connections.RunChangeListSchema }, 404: problem('not_found') },
  }),
  connectionEntitiesList: defineRoute({
    method: 'GET', path: '/v1/connections/{id}/entities', handler: 'connection-entities-list', auth: 'bearer', permission: 'connections:read', tag: 'inventory',
    summary: 'The discovered entities of a connection, optionally of one kind',
    request: { params: connections.ConnectionPathSchema, query: connections.EntityListQuerySchema },
    responses: { 200: { description: 'Entities', schema: connections.EntityListSchema }, 404: problem('not_found') },
  }),
  connectionRelationshipsList: defineRoute({
    method: 'GET', path: '/v1/connections/{id}/relationships', handler: 'connection-relationships-list', auth: 'bearer', permission: 'connections:read', tag: 'inventory',
    summary: 'The discovered relationships of a connection, optionally of one kind or touching one entity',
    request: { params: connections.ConnectionPathSchema, query: connections.RelationshipListQuerySchema },
    responses: { 200: { description: 'Relationships', schema: connections.RelationshipListSchema }, 404: problem('not_found') },
  }),
  tenantAuditEventsList: defineRoute({
    method: 'GET', path: '/v1/tenants/{id}/audit-events', handler: 'tenant-audit-events-list', auth: 'bearer', permission: 'tenant_audit:read', tag: 'audit',
    summary: 'The identity audit log of your tenant, newest first (tenant admins): sign-ins, MFA, tokens, passwords, users, IdP and policy changes',
    request: { params: TenantPathSchema, query: identity.TenantAuditEventQuerySchema },
    responses: { 200: { description: 'Identity audit events', schema: connections.TenantAuditEventListSchema }, 403: problem('forbidden') },
  }),
  auditEventsList: defineRoute({
    method: 'GET', path: '/v1/audit-events', handler: 'audit-events-list', auth: 'bearer', permission: 'audit:read', tag: 'audit',
    summary: 'Audit events of your workspace, newest first',
    request: { query: connections.AuditEventQuerySchema },
    responses: { 200: { description: 'Audit events', schema: connections.AuditEventListSchema } },
  }),
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

export const routeList: readonly RouteDefinition[] = Object.values(routes);
