/** The actions a tenant MFA policy can list (spec: TenantMfaPolicy.required_actions). */
export const mfaActions = ['LOGIN', 'CREATE_PAT', 'ROTATE_PAT', 'REVOKE_PAT', 'CHANGE_PASSWORD', 'MANAGE_USERS', 'UPDATE_IDP_CONFIG'] as const;
export type MfaAction = (typeof mfaActions)[number];

export const mfaModes = ['OFF', 'OPTIONAL', 'REQUIRED'] as const;
export type MfaMode = (typeof mfaModes)[number];

/** A step-up MFA is accepted for this long (API.md: "no older than 10 minutes"). */
export const STEP_UP_MAX_AGE_SECONDS = 600;
