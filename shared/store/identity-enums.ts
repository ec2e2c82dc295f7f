/**
 * The enumerations the identity records store (records.ts): workspace roles, MFA policy modes
 * and the actions a policy can list. They sit with the store so that the record shapes need
 * nothing from the domain above them; identity (permissions, MFA policy, schemas) takes them
 * from here.
 */

export const roles = ['admin', 'connector_builder', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** The actions a tenant MFA policy can list (spec: TenantMfaPolicy.required_actions). */
export const mfaActions = ['LOGIN', 'CREATE_PAT', 'ROTATE_PAT', 'REVOKE_PAT', 'CHANGE_PASSWORD', 'MANAGE_USERS', 'UPDATE_IDP_CONFIG'] as const;
export type MfaAction = (typeof mfaActions)[number];

export const mfaModes = ['OFF', 'OPTIONAL', 'REQUIRED'] as const;
export type MfaMode = (typeof mfaModes)[number];
