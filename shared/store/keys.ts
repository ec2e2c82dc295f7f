/**
 * Every key format of the table, and nothing else. No other module builds a key string.
 *
 * Tenant-owned items live under `TENANT#<tenant>`; workspace-owned items under
 * `TENANT#<tenant>#WS#<workspace>`, so a lookup made with another workspace's scope finds
 * nothing. Items found by a secret (PAT, refresh token, MFA transaction) are keyed by the
 * SHA-256 digest of that secret, never by the secret.
 */

export interface ItemKey {
  PK: string;
  SK: string;
}

export interface KeyPrefix {
  PK: string;
  SKPrefix: string;
}

const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;
const workspacePk = (tenantId: string, workspaceId: string) => `TENANT#${tenantId}#WS#${workspaceId}`;

export const keys = {
  /** Never written: the health check reads it to prove the table answers. */
  healthProbe: (): ItemKey => ({ PK: 'HEALTH', SK: 'HEALTH' }),
  tenant: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'TENANT' }),
  tenantSlug: (slug: string): ItemKey => ({ PK: `SLUG#${slug}`, SK: 'SLUG' }),
  emailDomain: (domain: string): ItemKey => ({ PK: `DOMAIN#${domain.toLowerCase()}`, SK: 'DOMAIN' }),
  mfaPolicy: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'MFA_POLICY' }),

  user: (tenantId: string, userId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `USER#${userId}` }),
  users: (tenantId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: 'USER#' }),
  userEmail: (tenantId: string, email: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `EMAIL#${email.toLowerCase()}` }),

  workspace: (tenantId: string, workspaceId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `WORKSPACE#${workspaceId}` }),
  workspaces: (tenantId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: 'WORKSPACE#' }),

  personalAccessToken: (tokenHash: string): ItemKey => ({ PK: `PAT#${tokenHash}`, SK: 'PAT' }),
  /** GSI1 keys of a PAT: the owner's listing, newest first by the time-ordered id. */
  personalAccessTokenOwner: (tenantId: string, userId: string, tokenId: string) => ({
    GSI1PK: `${tenantPk(tenantId)}#USER#${userId}#PATS`,
    GSI1SK: `PAT#${tokenId}`,
  }),
  personalAccessTokensOfUser: (tenantId: string, userId: string): { GSI1PK: string; GSI1SKPrefix: string } => ({
    GSI1PK: `${tenantPk(tenantId)}#USER#${userId}#PATS`,
    GSI1SKPrefix: 'PAT#',
  }),

  refreshToken: (tokenHash: string): ItemKey => ({ PK: `REFRESH#${tokenHash}`, SK: 'REFRESH' }),
  refreshFamily: (tenantId: string, userId: string, familyId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `RTFAMILY#${userId}#${familyId}` }),
  refreshFamiliesOfUser: (tenantId: string, userId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: `RTFAMILY#${userId}#` }),

  mfaTransaction: (tokenHash: string): ItemKey => ({ PK: `MFATX#${tokenHash}`, SK: 'MFATX' }),
  passwordResetToken: (tokenHash: string): ItemKey => ({ PK: `RESET#${tokenHash}`, SK: 'RESET' }),
  totpCredential: (tenantId: string, userId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `MFA#${userId}#TOTP` }),
  backupCode: (tenantId: string, userId: string, codeHash: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `MFA#${userId}#BACKUP#${codeHash}` }),
  backupCodes: (tenantId: string, userId: string): KeyPrefix => ({ PK: tenantPk(tenantId), SKPrefix: `MFA#${userId}#BACKUP#` }),

  /** Identity audit log of a tenant (logins, MFA, tokens, users, workspaces). */
  identityAuditEvent: (tenantId: string, eventId: string): ItemKey => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SK: `EVT#${eventId}` }),
  identityAuditEvents: (tenantId: string): KeyPrefix => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SKPrefix: 'EVT#' }),
  /** Audit log of one workspace (connection changes and tests). */
  workspaceAuditEvent: (tenantId: string, workspaceId: string, eventId: string): ItemKey => ({
    PK: `${workspacePk(tenantId, workspaceId)}#AUDIT`,
    SK: `EVT#${eventId}`,
  }),
  workspaceAuditEvents: (tenantId: string, workspaceId: string): KeyPrefix => ({
    PK: `${workspacePk(tenantId, workspaceId)}#AUDIT`,
    SKPrefix: 'EVT#',
  }),

  connection: (tenantId: string, workspaceId: string, connectionId: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `CONN#${connectionId}` }),
  connections: (tenantId: string, workspaceId: string): KeyPrefix => ({ PK: workspacePk(tenantId, workspaceId), SKPrefix: 'CONN#' }),
  connectionTest: (tenantId: string, workspaceId: string, connectionId: string, testId: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `CONNTEST#${connectionId}#${testId}` }),
  connectionTests: (tenantId: string, workspaceId: string, connectionId: string): KeyPrefix => ({ PK: workspacePk(tenantId, workspaceId), SKPrefix: `CONNTEST#${connectionId}#` }),
  connectionRun: (tenantId: string, workspaceId: string, connectionId: string, runId: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `CONNRUN#${connectionId}#${runId}` }),
  connectionRuns: (tenantId: string, workspaceId: string, connectionId: string): KeyPrefix => ({ PK: workspacePk(tenantId, workspaceId), SKPrefix: `CONNRUN#${connectionId}#` }),
  /** Idempotency-Key records of POST requests: per workspace and caller, the key digested. */
  idempotencyRecord: (tenantId: string, workspaceId: string, userId: string, keyDigest: string): ItemKey => ({ PK: workspacePk(tenantId, workspaceId), SK: `IDEMP#${userId}#${keyDigest}` }),

  /** A fixed-window counter: `subject` is already a digest or an id, never raw user input. */
  rateCounter: (limiter: string, subject: string, windowIndex: number): ItemKey => ({
    PK: `RATE#${limiter}#${subject}`,
    SK: `W#${windowIndex}`,
  }),

  // ---- tenant SSO ----------------------------------------------------------------------
  /** The tenant's one IdP configuration (OIDC and/or SAML settings, one of them active). */
  idpConfig: (tenantId: string): ItemKey => ({ PK: tenantPk(tenantId), SK: 'IDP_CONFIG' }),
  /** A federated identity: `identityDigest` is a digest of (issuer, subject), never raw IdP input. */
  externalIdentity: (tenantId: string, identityDigest: string): ItemKey => ({ PK: tenantPk(tenantId), SK: `EXTID#${identityDigest}` }),
  /** A login in flight between /start and /callback, keyed by the digest of its `state` / RelayState. */
  ssoTransaction: (stateHash: string): ItemKey => ({ PK: `SSOTX#${stateHash}`, SK: 'SSOTX' }),
  /** The single-use code the callback hands to the client, keyed by its digest. */
  ssoCode: (codeHash: string): ItemKey => ({ PK: `SSOCODE#${codeHash}`, SK: 'SSOCODE' }),
  /** SAML assertion ids already accepted (replay cache, until NotOnOrAfter + skew). */
  samlAssertionUse: (tenantId: string, assertionDigest: string): ItemKey => ({ PK: `${tenantPk(tenantId)}#SAMLA#${assertionDigest}`, SK: 'SAMLA' }),
} as const;
