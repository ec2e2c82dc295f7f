/**
 * Generated from the served OpenAPI document by `npm run build:console`: do not edit.
 */

export interface paths {
    "/v1/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys that verify access tokens */
        get: operations["jwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/access-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who gained or lost what, when, newest first (kept at least 400 days) */
        get: operations["accessChangesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit events of your workspace, newest first */
        get: operations["auditEventsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which tenant an email belongs to and how its users sign in (email-domain routing) */
        get: operations["discover"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Local login with email and password */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a session: its refresh token family and the access tokens it holds */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Email a password reset link (answers 202 whether or not the account exists) */
        post: operations["passwordForgot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the token of a reset link; every refresh token of the user is revoked */
        post: operations["passwordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sso/{tenant}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OIDC redirect URI: verify the answer, sign the user in, redirect to redirect_uri?code= */
        get: operations["ssoCallback"];
        put?: never;
        /** SAML assertion consumer service (HTTP-POST) and OIDC form_post: verify, sign in, redirect to redirect_uri?code= */
        post: operations["ssoCallbackPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sso/{tenant}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SAML service provider metadata of the tenant (entity id, assertion consumer service) */
        get: operations["ssoMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sso/{tenant}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Begin an SP-initiated login at the tenant IdP (OIDC with PKCE, or a SAML AuthnRequest); redirects */
        get: operations["ssoStart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a refresh token (rotating it) or an SSO code for tokens */
        post: operations["token"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Connections of your workspace, newest first */
        get: operations["connectionsList"];
        put?: never;
        /** Create a connection (honours Idempotency-Key); the configuration is write-only */
        post: operations["connectionsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a connection (never its configuration); answers an ETag */
        get: operations["connectionsGet"];
        put?: never;
        post?: never;
        /** Delete a connection; If-Match honoured */
        delete: operations["connectionsDelete"];
        options?: never;
        head?: never;
        /** Change a connection; omitting configuration keeps it; If-Match honoured */
        patch: operations["connectionsUpdate"];
        trace?: never;
    };
    "/v1/connections/{id}/entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The discovered entities of a connection, optionally of one kind, or those whose name or source id starts with q */
        get: operations["connectionEntitiesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/entities/{entity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One discovered entity, with its first 100 relationships each way (the other end named) and how many there are */
        get: operations["connectionEntityGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/entities/{entity_id}/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who reaches an entity: one item per person and account, with the paths */
        get: operations["entityAccessList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/relationships": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The discovered relationships of a connection, optionally of one kind or touching one entity */
        get: operations["connectionRelationshipsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Discovery run history of a connection, newest first */
        get: operations["connectionRunsList"];
        put?: never;
        /** Start a discovery run now; 409 while another run of the connection is queued or running. The body is optional; `confirm_removals: true` accepts the drops the mass-removal guard held back */
        post: operations["connectionRunsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One discovery run: status, counts, changes, errors and timings */
        get: operations["connectionRunsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/runs/{run_id}/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a run found different from the previous one (entities added, removed, changed; relationships added, removed) */
        get: operations["connectionRunChangesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test a connection against its provider now */
        post: operations["connectionsTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Test history of a connection, newest first */
        get: operations["connectionTestsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export a list as CSV or NDJSON, as a job: entities, relationships, people, access, access changes or audit events of your workspace. Needs the permission of that list (`connections:read`; `audit:read` for audit events); only you may read the export */
        post: operations["exportsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An export you asked for: its status and, once succeeded, its row count */
        get: operations["exportsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exports/{export_id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The file of a succeeded export (CSV: RFC 4180 with a header row; NDJSON: one item per line). In AWS a 302 to a signed URL that works for 5 minutes */
        get: operations["exportsContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and table reachability */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The catalog of discovery integrations, with their configuration and scope schemas */
        get: operations["integrationsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user in the credential's workspace */
        get: operations["me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/federated-identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The identity provider accounts linked to your account (ordered by identity, not by time) */
        get: operations["meFederatedIdentitiesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/federated-identities/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Begin linking an identity provider account to your account: an SSO login at the tenant IdP whose callback links instead of signing in */
        post: operations["meFederatedIdentityLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change your password (needs the current one); every other session ends, personal access tokens stay */
        post: operations["mePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mfa/backup-codes/regen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace your backup codes (needs an MFA within the last 10 minutes); the old ones stop working */
        post: operations["mfaBackupCodesRegen"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mfa/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer an MFA challenge: completes a login (mfa_token) or steps up an access token */
        post: operations["mfaChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mfa/enroll/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm TOTP enrollment with a first code; returns backup codes (and tokens when it completes a login) */
        post: operations["mfaEnrollConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mfa/enroll/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Begin TOTP enrollment (secret, otpauth URI, QR code); from a session, with the current password (an SSO user: a sign-in at the IdP in the last 10 minutes) */
        post: operations["mfaEnrollStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/people": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The people of the workspace across all its connections, by display name; `q` searches name and email prefixes */
        get: operations["peopleList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/people/{person_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A person and their accounts in every connection */
        get: operations["peopleGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/people/{person_id}/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every entitlement and resource a person reaches, each with the paths from their accounts, hop by hop */
        get: operations["personAccessList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The permission registry */
        get: operations["permissionsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{id}/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The identity audit log of your tenant, newest first (tenant admins): sign-ins, MFA, tokens, passwords, users, IdP and policy changes */
        get: operations["tenantAuditEventsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{id}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The email domains of your tenant and their verification status (tenant admins) */
        get: operations["domainsList"];
        put?: never;
        /** Add an email domain: pending, with the DNS TXT record that proves control of it */
        post: operations["domainsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{id}/domains/{domain}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an email domain: it stops routing at once */
        delete: operations["domainsDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{id}/domains/{domain}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check the domain's TXT record now: verified when it holds the value */
        post: operations["domainsVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{id}/idp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the tenant IdP configuration (the client secret is write-only) */
        get: operations["idpGet"];
        put?: never;
        /** Create the tenant IdP configuration (OIDC and/or SAML, one active) */
        post: operations["idpCreate"];
        /** Delete the tenant IdP configuration and release the email domains it claimed */
        delete: operations["idpDelete"];
        options?: never;
        head?: never;
        /** Change the tenant IdP configuration; omitting client_secret keeps it */
        patch: operations["idpUpdate"];
        trace?: never;
    };
    "/v1/tenants/{id}/mfa-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant MFA policy */
        get: operations["mfaPolicyGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the tenant MFA policy (audited; needs a recent MFA unless the policy is OFF) */
        patch: operations["mfaPolicyUpdate"];
        trace?: never;
    };
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your personal access tokens */
        get: operations["tokensList"];
        put?: never;
        /** Create a personal access token; the token is shown only in this answer */
        post: operations["tokensCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a personal access token */
        delete: operations["tokensRevoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace a personal access token by a new one; the old one is revoked at once */
        post: operations["tokensRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users of the tenant */
        get: operations["usersList"];
        put?: never;
        /** Create a user with a role in a workspace */
        post: operations["usersCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a user */
        get: operations["usersGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a user's email, role in a workspace, or tenant administration */
        patch: operations["usersUpdate"];
        trace?: never;
    };
    "/v1/users/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a user; every credential of the user stops working at once */
        post: operations["usersDisable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a disabled user again; the user signs in anew (tokens from before stay refused) */
        post: operations["usersEnable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/federated-identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The identity provider accounts linked to a user (tenant admins; ordered by identity, not by time) */
        get: operations["userFederatedIdentitiesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/federated-identities/{identity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unlink an identity provider account from a user (audited); it no longer signs in as that user */
        delete: operations["userFederatedIdentityUnlink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/mfa/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reset a user's MFA: the authenticator and backup codes are removed and every session of the user ends; the next sign-in enrolls anew */
        post: operations["usersMfaReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Workspaces you belong to (all of them for a tenant admin) */
        get: operations["workspacesList"];
        put?: never;
        /** Create a workspace owned by you */
        post: operations["workspacesCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{id}/owner-transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer a workspace to another active user of the tenant (audited) */
        post: operations["workspacesOwnerTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AttributeChange: {
            /** @description The value this run read, as text; null when it is gone */
            after: string | null;
            attribute: string;
            /** @description The earlier value as text (a string as it is, anything else as JSON; at most 200 characters); null when it was absent */
            before: string | null;
        };
        AuditEvent: {
            action: string;
            actor_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description SHA-256 (hex) of the canonical JSON of the event without this field (README, "Tamper-evident audit") */
            digest: string;
            event_id: string;
            payload: {
                [key: string]: unknown;
            };
            /** @description The digest of the event before it in the chain; null for the first */
            prev_digest: string | null;
            /** @description The event's place in its log's hash chain: 1, 2, … without a gap */
            seq: number;
            target_id: string;
            target_type: string;
            tenant_id: string;
            workspace_id: string | null;
        };
        Connection: {
            configuration_schema_version: number;
            connection_id: string;
            connector_id: string;
            connector_version: string;
            /** Format: date-time */
            created_at: string;
            integration_id: string;
            last_run_at: string | null;
            name: string;
            /** @description When the schedule fires next (UTC) */
            next_run_at: string | null;
            schedule: {
                hour: number;
                minute: number;
                timezone: string;
                /** @constant */
                type: "daily";
            };
            scope: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "healthy" | "degraded" | "unknown";
            tenant_id: string;
            /** Format: date-time */
            updated_at: string;
            workspace_id: string;
        };
        ConnectionTestResult: {
            /** Format: date-time */
            checked_at: string;
            remediation: {
                action: string;
                category: string;
                message: string;
            }[];
            /** @enum {string} */
            status: "success" | "failure";
            test_id: string;
        };
        CreatedPersonalAccessToken: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            id: string;
            last_used_at: string | null;
            name: string;
            revoked_at: string | null;
            scopes: string[];
            token: string;
            workspace_id: string;
        };
        EmailDomain: {
            checked_at: string | null;
            /** Format: date-time */
            created_at: string;
            domain: string;
            /** @description What the last failed check found */
            last_failure: string | null;
            /**
             * @description How it was proven: the DNS TXT challenge, or the operator at tenant creation (never re-checked)
             * @enum {string}
             */
            method: "dns_txt" | "operator";
            /** @enum {string} */
            status: "pending" | "verified" | "failed";
            verification: {
                /** @description The TXT record to publish: _tessera-challenge.<domain> */
                name: string;
                /** @constant */
                type: "dns_txt";
                /** @description The value it must hold: tessera-verification=<random> */
                value: string;
            };
            verified_at: string | null;
        };
        Entity: {
            attributes: {
                [key: string]: unknown;
            };
            display_name: string;
            entity_id: string;
            /** Format: date-time */
            first_seen_at: string;
            /** @enum {string} */
            kind: "Principal" | "Account" | "Entitlement" | "Resource" | "CloudAccountBoundary";
            /** Format: date-time */
            last_seen_at: string;
            source_id: string;
        };
        EntityDetail: {
            attributes: {
                [key: string]: unknown;
            };
            display_name: string;
            entity_id: string;
            /** Format: date-time */
            first_seen_at: string;
            /** @enum {string} */
            kind: "Principal" | "Account" | "Entitlement" | "Resource" | "CloudAccountBoundary";
            /** Format: date-time */
            last_seen_at: string;
            relationships: {
                /** @description Relationships to this entity, at most 100 */
                in: {
                    entity: components["schemas"]["EntityRef"];
                    /** @enum {string} */
                    kind: "principal_represents_account" | "account_assigned_entitlement" | "entitlement_grants_resource";
                }[];
                in_total: number;
                /** @description Relationships from this entity, at most 100: their kind and the entity at the other end */
                out: {
                    entity: components["schemas"]["EntityRef"];
                    /** @enum {string} */
                    kind: "principal_represents_account" | "account_assigned_entitlement" | "entitlement_grants_resource";
                }[];
                out_total: number;
            };
            source_id: string;
        };
        EntityRef: {
            display_name: string;
            entity_id: string;
            /** @enum {string} */
            kind: "Principal" | "Account" | "Entitlement" | "Resource" | "CloudAccountBoundary";
            source_id: string;
        };
        Export: {
            /** Format: date-time */
            created_at: string;
            /** @description Why a failed export failed */
            error: string | null;
            /**
             * Format: date-time
             * @description After this the export and its file are gone (404)
             */
            expires_at: string;
            export_id: string;
            filters: {
                connection_id?: string;
                /** @description The connection_id filter's connection, by name (as when the export was asked for) */
                connection_name?: string;
                /** @description The entity_id filter's entity, by name */
                entity_display_name?: string;
                entity_id?: string;
                /** @description The person_id filter's person, by name */
                person_display_name?: string;
                person_id?: string;
                /** Format: date-time */
                since?: string;
                /** Format: date-time */
                until?: string;
            };
            finished_at: string | null;
            /** @enum {string} */
            format: "csv" | "ndjson";
            /** @description Data rows written (the CSV header not counted); final once succeeded */
            rows: number;
            /** @enum {string} */
            source: "entities" | "relationships" | "people" | "access" | "access_changes" | "audit_events";
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
        };
        FederatedIdentity: {
            /** Format: date-time */
            created_at: string;
            id: string;
            issuer: string;
            /** @enum {string} */
            provider_type: "oidc" | "saml";
            subject: string;
        };
        FederatedIdentityLinkStart: {
            /** @description Send the browser here; the IdP returns it to the callback, which redirects to redirect_uri?linked=true&federated_identity_id=… (or ?error=…) */
            authorization_url: string;
        };
        IdpConfig: {
            active: boolean;
            allowed_redirect_uris: string[];
            client_id: string | null;
            client_secret_set: boolean;
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            default_role: "admin" | "connector_builder" | "viewer";
            default_workspace_id: string;
            email_domains: string[];
            issuer: string | null;
            /** @enum {string} */
            provider_type: "oidc" | "saml";
            saml: {
                entity_id: string;
                signing_certificate_sha256: string[];
                sso_url: string;
                want_authn_requests_signed: boolean;
            } | null;
            saml_metadata: string | null;
            saml_subject_attribute: string | null;
            service_provider: {
                acs_url: string;
                entity_id: string;
                metadata_url: string;
                redirect_uri: string;
            };
            tenant_id: string;
            /** Format: date-time */
            updated_at: string;
        };
        Integration: {
            /** @description JSON Schema (draft 2020-12) of `configuration` */
            configuration_schema: {
                [key: string]: unknown;
            };
            connector_id: string;
            /** @constant */
            connector_type: "discovery";
            created_at: string;
            emits_entities: string[];
            emits_relationships: string[];
            integration_id: string;
            limits_blind_spots: string[];
            name: string;
            /** @enum {string} */
            provider_system: "cloud_provider_a" | "cloud_provider_b" | "identity_provider_a";
            required_permissions: string[];
            /** @description JSON Schema (draft 2020-12) of `scope` */
            scope_schema: {
                [key: string]: unknown;
            };
            supports_test: boolean;
            updated_at: string;
            version: string;
        };
        JsonWebKeySet: {
            keys: ({
                alg: string;
                crv?: string;
                kid: string;
                kty: string;
                /** @constant */
                use: "sig";
                x?: string;
            } & {
                [key: string]: unknown;
            })[];
        };
        Me: {
            email: string;
            id: string;
            mfa_enrolled: boolean;
            permissions: string[];
            role: ("admin" | "connector_builder" | "viewer") | null;
            /** @enum {string} */
            status: "active" | "disabled";
            tenant_admin: boolean;
            tenant_id: string;
            workspace_id: string;
        };
        MfaPending: {
            enrollment_required: boolean;
            /** @constant */
            mfa_required: true;
            mfa_token: string;
        };
        MfaPolicy: {
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            mfa_mode: "OFF" | "OPTIONAL" | "REQUIRED";
            required_actions: ("LOGIN" | "CREATE_PAT" | "ROTATE_PAT" | "REVOKE_PAT" | "CHANGE_PASSWORD" | "MANAGE_USERS" | "UPDATE_IDP_CONFIG")[];
            tenant_id: string;
            /** Format: date-time */
            updated_at: string;
        };
        Person: {
            accounts: number;
            connections: string[];
            display_name: string;
            emails: string[];
            person_id: string;
        };
        PersonalAccessToken: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            id: string;
            last_used_at: string | null;
            name: string;
            revoked_at: string | null;
            scopes: string[];
            workspace_id: string;
        };
        Problem: {
            code: string;
            detail: string;
            errors?: {
                message: string;
                path: string;
            }[];
            request_id: string;
            status: number;
            title: string;
            type: string;
        };
        Relationship: {
            /** Format: date-time */
            first_seen_at: string;
            from: components["schemas"]["EntityRef"];
            from_entity_id: string;
            from_source_id: string;
            /** @enum {string} */
            kind: "principal_represents_account" | "account_assigned_entitlement" | "entitlement_grants_resource";
            to: components["schemas"]["EntityRef"];
            to_entity_id: string;
            to_source_id: string;
        };
        Run: {
            changes: {
                entities_added: number;
                entities_changed: number;
                entities_removed: number;
                relationships_added: number;
                relationships_removed: number;
            };
            /** @description Started with `confirm_removals`: drops the mass-removal guard would hold were accepted */
            confirm_removals: boolean;
            connection_id: string;
            counts: {
                entities: {
                    [key: string]: number;
                };
                relationships: {
                    [key: string]: number;
                };
            };
            errors: {
                action: string;
                category: string;
                message: string;
            }[];
            finished_at: string | null;
            progress: components["schemas"]["RunProgress"];
            /** Format: date-time */
            queued_at: string;
            run_id: string;
            started_at: string | null;
            /** @description How the run went: checkpointed steps, provider requests, time spent waiting for rate limits, inventory items written and deleted, relationships refused because the provider never listed one of their ends */
            stats: {
                dangling_relationships: number;
                items_deleted: number;
                items_written: number;
                provider_requests: number;
                steps: number;
                throttled_ms: number;
            };
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "partial" | "failed";
            /** @enum {string} */
            trigger: "schedule" | "manual";
        };
        RunChange: {
            /** @enum {string} */
            change: "added" | "removed" | "changed";
            /** @description A `changed` entity only: what it says differently from the previous run, its name as `display_name` and each attribute, in name order (at most 20) */
            changed_attributes?: components["schemas"]["AttributeChange"][];
            /** @description The name of the entity, or of the relationship's `from` end */
            display_name: string;
            /** @description The entity; for a relationship, its `from` end */
            entity_id: string;
            /** @description Relationships only: the `from` end, named */
            from?: components["schemas"]["EntityRef"];
            kind: string;
            source_id: string;
            /** @description Relationships only: the `to` end, named */
            to?: components["schemas"]["EntityRef"];
            /** @description Relationships only: the `to` end */
            to_entity_id?: string;
            to_source_id?: string;
        };
        RunProgress: {
            /** @description Inventory items written so far (unchanged items are not written again) */
            items_written: number;
            /** @description Provider pages read so far, all tracks */
            pages: number;
            /** @enum {string} */
            phase: "reading" | "sweeping" | "finalizing";
            /** @description Provider requests sent so far */
            requests: number;
            /** @description Time spent waiting for the provider's rate limits */
            throttled_seconds: number;
            tracks: {
                [key: string]: {
                    pages: number;
                    /** @enum {string} */
                    status: "pending" | "reading" | "done" | "refused";
                };
            };
        };
        StartRunBody: {
            /** @description Accept, in this run, the removals a previous run held back (an error of category `safety`) */
            confirm_removals?: boolean;
        };
        TenantAuditEvent: {
            action: string;
            actor_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description SHA-256 (hex) of the canonical JSON of the event without this field (README, "Tamper-evident audit") */
            digest: string;
            event_id: string;
            payload: {
                [key: string]: unknown;
            };
            /** @description The digest of the event before it in the chain; null for the first */
            prev_digest: string | null;
            /** @description The event's place in its log's hash chain: 1, 2, … without a gap */
            seq: number;
            source_ip: string | null;
            target_id: string;
            target_type: string;
            tenant_id: string;
            workspace_id: string | null;
        };
        TokenResponse: {
            access_token: string;
            expires_in: number;
            refresh_token?: string;
            tenant_id: string;
            /** @constant */
            token_type: "Bearer";
            workspace_id: string;
        };
        User: {
            /** Format: date-time */
            created_at: string;
            email: string;
            id: string;
            memberships: {
                /** @enum {string} */
                role: "admin" | "connector_builder" | "viewer";
                workspace_id: string;
            }[];
            mfa_enrolled: boolean;
            role: ("admin" | "connector_builder" | "viewer") | null;
            /** @enum {string} */
            status: "active" | "disabled";
            tenant_admin: boolean;
            tenant_id: string;
            /** Format: date-time */
            updated_at: string;
            username: string | null;
            workspace_id: string | null;
        };
        Workspace: {
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            owner_id: string;
            tenant_id: string;
            /** Format: date-time */
            updated_at: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    jwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON Web Key Set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonWebKeySet"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    accessChangesList: {
        parameters: {
            query?: {
                connection_id?: string;
                cursor?: string;
                limit?: number;
                person_id?: string;
                /** @description Changes at or after this time */
                since?: string;
                /** @description Changes before this time */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Access changes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_changes: {
                            /** Format: date-time */
                            at: string;
                            /** @enum {string} */
                            change: "gained" | "lost";
                            connection_id: string;
                            person: {
                                display_name: string;
                                person_id: string;
                            };
                            run_id: string;
                            target: components["schemas"]["EntityRef"];
                            via: components["schemas"]["EntityRef"];
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    auditEventsList: {
        parameters: {
            query?: {
                action?: string;
                cursor?: string;
                limit?: number;
                target_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Audit events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audit_events: components["schemas"]["AuditEvent"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    discover: {
        parameters: {
            query: {
                email: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Login methods */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: ("password" | "sso")[];
                        sso: {
                            /** @enum {string} */
                            provider_type: "oidc" | "saml";
                            start_url: string;
                        } | null;
                        tenant: string;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    password: string;
                    tenant?: string;
                    username?: string;
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Tokens, or an MFA step to complete */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"] | components["schemas"]["MfaPending"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_credentials */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refresh_token: string;
                };
            };
        };
        responses: {
            /** @description Logged out */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    passwordForgot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    tenant?: string;
                    username?: string;
                };
            };
        };
        responses: {
            /** @description Accepted; when the account exists, a reset link is on its way */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    passwordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    new_password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Password set */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated: the link is not valid, used or expired */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ssoCallback: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                error_description?: string;
                error_uri?: string;
                iss?: string;
                session_state?: string;
                state?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the client application's redirect_uri: with `code` (single use, 60 s) after a login, or with `error` and `error_description` when it failed; its `state` either way */
            302: {
                headers: {
                    /** @description Where the browser goes next. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated: no login in flight matches this answer, so there is nowhere to send the browser back to */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ssoCallbackPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    code?: string;
                    error?: string;
                    error_description?: string;
                    error_uri?: string;
                    iss?: string;
                    RelayState?: string;
                    SAMLResponse?: string;
                    session_state?: string;
                    state?: string;
                };
            };
        };
        responses: {
            /** @description To the client application's redirect_uri: with `code` (single use, 60 s) after a login, or with `error` and `error_description` when it failed; its `state` either way */
            302: {
                headers: {
                    /** @description Where the browser goes next. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated: no login in flight matches this answer, so there is nowhere to send the browser back to */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ssoMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SAML metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/samlmetadata+xml": string;
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ssoStart: {
        parameters: {
            query: {
                code_challenge?: string;
                code_challenge_method?: "S256";
                redirect_uri: string;
                state?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the identity provider */
            302: {
                headers: {
                    /** @description Where the browser goes next. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed: e.g. a redirect_uri that is not on the tenant's allow-list */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    token: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    grant_type: "refresh_token";
                    refresh_token: string;
                    workspace_id?: string;
                } | {
                    code: string;
                    code_verifier?: string;
                    /** @constant */
                    grant_type: "sso_code";
                };
            };
        };
        responses: {
            /** @description Tokens */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionsList: {
        parameters: {
            query?: {
                cursor?: string;
                integration_id?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connections */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: components["schemas"]["Connection"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionsCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description A key of your choice (1 to 255 visible ASCII characters) that makes a retry safe: the same key with the same body answers the first result again instead of creating a second resource; with another body, 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    configuration: {
                        [key: string]: unknown;
                    };
                    integration_id: string;
                    name: string;
                    schedule: {
                        hour: number;
                        minute: number;
                        /** @description IANA time zone of hour and minute (default UTC); daylight saving time is followed. */
                        timezone?: string;
                        /** @constant */
                        type: "daily";
                    };
                    scope: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Created (or, for a retry with the same Idempotency-Key and body, the connection the first request created) */
            201: {
                headers: {
                    /** @description Version of the resource; send it back in `If-Match` to make a change conditional. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict: a request with this Idempotency-Key is still in progress; or limit_exceeded: the workspace has 1000 connections */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unprocessable: scope or configuration do not fit the integration, or the Idempotency-Key was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connection */
            200: {
                headers: {
                    /** @description Version of the resource; send it back in `If-Match` to make a change conditional. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionsDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version you read: the change applies only while it is still the current one (else 412 precondition_failed); `*` matches any version. Without it, the change applies to whatever is current. */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match names a version that is no longer current */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionsUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the version you read: the change applies only while it is still the current one (else 412 precondition_failed); `*` matches any version. Without it, the change applies to whatever is current. */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    configuration?: {
                        [key: string]: unknown;
                    };
                    integration_id?: string;
                    name?: string;
                    schedule?: {
                        hour: number;
                        minute: number;
                        /** @description IANA time zone of hour and minute (default UTC); daylight saving time is followed. */
                        timezone?: string;
                        /** @constant */
                        type: "daily";
                    };
                    scope?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Connection */
            200: {
                headers: {
                    /** @description Version of the resource; send it back in `If-Match` to make a change conditional. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match names a version that is no longer current */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unprocessable: scope or configuration do not fit the integration */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionEntitiesList: {
        parameters: {
            query?: {
                cursor?: string;
                kind?: "Principal" | "Account" | "Entitlement" | "Resource" | "CloudAccountBoundary";
                limit?: number;
                /** @description A case-insensitive prefix of the display name or of the source id; matches are listed kind by kind, name matches first */
                q?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Entities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entities: components["schemas"]["Entity"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionEntityGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                entity_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entity */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EntityDetail"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    entityAccessList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                entity_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Who reaches the entity */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access: {
                            account: components["schemas"]["EntityRef"];
                            paths: components["schemas"]["EntityRef"][][];
                            person: {
                                display_name: string;
                                person_id: string;
                            };
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionRelationshipsList: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Only relationships with this entity at either end */
                entity_id?: string;
                kind?: "principal_represents_account" | "account_assigned_entitlement" | "entitlement_grants_resource";
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Relationships */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        relationships: components["schemas"]["Relationship"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionRunsList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        runs: components["schemas"]["Run"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionRunsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["StartRunBody"];
            };
        };
        responses: {
            /** @description Queued; Location is the run's URL */
            202: {
                headers: {
                    /** @description The URL of what the request started or created (absolute). */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description validation_failed: an unknown field or a value that is not a boolean */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict: a run of this connection is already queued or running (the detail names it) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionRunsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionRunChangesList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Changes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        changes: components["schemas"]["RunChange"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionsTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Test result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionTestResult"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    connectionTestsList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tests */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        tests: {
                            /** Format: date-time */
                            checked_at: string;
                            connection_id: string;
                            /** Format: date-time */
                            created_at: string;
                            remediation: {
                                action: string;
                                category: string;
                                message: string;
                            }[];
                            /** @enum {string} */
                            status: "success" | "failure";
                            tenant_id: string;
                            test_id: string;
                            workspace_id: string;
                        }[];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description entities, relationships: required. access, access_changes: only this connection */
                    connection_id?: string;
                    /** @description access, with connection_id: the people who reach this entity */
                    entity_id?: string;
                    /** @enum {string} */
                    format: "csv" | "ndjson";
                    /** @description access, access_changes: only this person */
                    person_id?: string;
                    /**
                     * Format: date-time
                     * @description access_changes, audit_events: at or after this time
                     */
                    since?: string;
                    /** @enum {string} */
                    source: "entities" | "relationships" | "people" | "access" | "access_changes" | "audit_events";
                    /**
                     * Format: date-time
                     * @description access_changes, audit_events: before this time
                     */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Queued; Location is the export's URL, to poll until `succeeded` */
            202: {
                headers: {
                    /** @description The URL of what the request started or created (absolute). */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        export_id: string;
                        /** @enum {string} */
                        status: "queued" | "running" | "succeeded" | "failed";
                    };
                };
            };
            /** @description validation_failed: an unknown source or format, a filter the source does not take, a missing connection_id (entities, relationships; access with entity_id), until not after since */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential lacks the permission the source needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: the connection, person or entity named does not exist in your workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential lacks the permission the source needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such export of yours (another user's is not found either), or it expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportsContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (local mode), with Content-Disposition naming it */
            200: {
                headers: {
                    /** @description attachment; filename="tessera-<source>-<export_id>.<csv|ndjson>" */
                    "Content-Disposition": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv": string;
                };
            };
            /** @description The file at a short-lived signed URL of the exports bucket (AWS) */
            302: {
                headers: {
                    /** @description Where the browser goes next. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential lacks the permission the source needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such export of yours, or it expired */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict: the export has not succeeded (still queued or running, or failed) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The table is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    integrationsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Integrations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        integrations: components["schemas"]["Integration"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Current user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    meFederatedIdentitiesList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Federated identities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        federated_identities: components["schemas"]["FederatedIdentity"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    meFederatedIdentityLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    redirect_uri: string;
                    state?: string;
                };
            };
        };
        responses: {
            /** @description Where to send the browser */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FederatedIdentityLinkStart"];
                };
            };
            /** @description validation_failed: e.g. a redirect_uri that is not on the tenant's list of allowed redirect URIs */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: a personal access token cannot link identities */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: the tenant has no active single sign-on */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description Password changed; every other session of the user ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_credentials or mfa_required */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mfaBackupCodesRegen: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new backup codes, shown only here */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        backup_codes: string[];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description mfa_required */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mfaChallenge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    backup_code?: string;
                    code?: string;
                    mfa_token?: string;
                };
            };
        };
        responses: {
            /** @description Tokens */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_credentials */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mfaEnrollConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                    mfa_token?: string;
                };
            };
        };
        responses: {
            /** @description Backup codes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token?: string;
                        backup_codes: string[];
                        expires_in?: number;
                        refresh_token?: string;
                        tenant_id?: string;
                        /** @constant */
                        token_type?: "Bearer";
                        workspace_id?: string;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mfaEnrollStart: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description From a session (an access token), for a user with a password: the proof that the caller owns the account. Not needed with an mfa_token */
                    current_password?: string;
                    mfa_token?: string;
                };
            };
        };
        responses: {
            /** @description Enrollment material */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        otpauth_uri: string;
                        qr_code: string;
                        secret: string;
                    };
                };
            };
            /** @description validation_failed: from a session, a user with a password gives current_password */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_credentials: the current password is wrong; mfa_required: an SSO user signed in at the IdP more than 10 minutes ago */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict: TOTP is already enrolled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        info: {
                            title: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                        openapi: string;
                        paths: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    peopleList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                /** @description A case-insensitive prefix of the display name or of an email */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description People */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        people: components["schemas"]["Person"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    peopleGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                person_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The person */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accounts: {
                            connection_id: string;
                            display_name: string;
                            entity_id: string;
                            kind: string;
                            source_id: string;
                        }[];
                        display_name: string;
                        emails: string[];
                        person_id: string;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    personAccessList: {
        parameters: {
            query?: {
                connection_id?: string;
                cursor?: string;
                kind?: "Entitlement" | "Resource";
                limit?: number;
            };
            header?: never;
            path: {
                person_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the person reaches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access: {
                            connection_id: string;
                            paths: components["schemas"]["EntityRef"][][];
                            target: components["schemas"]["EntityRef"];
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    permissionsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Permissions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        permissions: {
                            description: string;
                            name: string;
                        }[];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    tenantAuditEventsList: {
        parameters: {
            query?: {
                action?: string;
                actor_id?: string;
                cursor?: string;
                limit?: number;
                since?: string;
                until?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Identity audit events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audit_events: components["schemas"]["TenantAuditEvent"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    domainsList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Email domains */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        domains: components["schemas"]["EmailDomain"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    domainsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    domain: string;
                };
            };
        };
        responses: {
            /** @description Added (pending) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailDomain"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict: already added, or verified by another tenant */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    domainsDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domain: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    domainsVerify: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domain: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Verified */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailDomain"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict: the record does not hold the value (the detail says what was found), or another tenant verified the domain */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unavailable: DNS did not answer; nothing changed */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    idpGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description IdP configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdpConfig"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    idpCreate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active: boolean;
                    allowed_redirect_uris: string[];
                    client_id?: string;
                    client_secret?: string;
                    /**
                     * @default viewer
                     * @enum {string}
                     */
                    default_role?: "admin" | "connector_builder" | "viewer";
                    default_workspace_id?: string;
                    /** @default [] */
                    email_domains?: string[];
                    issuer?: string;
                    /** @enum {string} */
                    provider_type: "oidc" | "saml";
                    saml_metadata?: string;
                    /** @description SAML: the attribute that identifies the user when the IdP sends neither a persistent NameID nor a subject-id/pairwise-id attribute (e.g. `uid`) */
                    saml_subject_attribute?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdpConfig"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    idpDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    idpUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    allowed_redirect_uris?: string[];
                    client_id?: string;
                    client_secret?: string;
                    /** @enum {string} */
                    default_role?: "admin" | "connector_builder" | "viewer";
                    default_workspace_id?: string;
                    email_domains?: string[];
                    issuer?: string;
                    /** @enum {string} */
                    provider_type?: "oidc" | "saml";
                    saml_metadata?: string;
                    saml_subject_attribute?: string | null;
                };
            };
        };
        responses: {
            /** @description IdP configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdpConfig"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mfaPolicyGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MFA policy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MfaPolicy"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mfaPolicyUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    mfa_mode?: "OFF" | "OPTIONAL" | "REQUIRED";
                    required_actions?: ("LOGIN" | "CREATE_PAT" | "ROTATE_PAT" | "REVOKE_PAT" | "CHANGE_PASSWORD" | "MANAGE_USERS" | "UPDATE_IDP_CONFIG")[];
                };
            };
        };
        responses: {
            /** @description MFA policy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MfaPolicy"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description mfa_required */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    tokensList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        tokens: components["schemas"]["PersonalAccessToken"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    tokensCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default 90 */
                    expires_in_days?: number;
                    name: string;
                    scopes: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedPersonalAccessToken"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description limit_exceeded: you have 50 active tokens (revoked and expired ones do not count); or conflict: your tokens changed meanwhile, try again */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    tokensRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    tokensRotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new token */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedPersonalAccessToken"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usersList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        users: components["schemas"]["User"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usersCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password?: string;
                    /** @enum {string} */
                    role: "admin" | "connector_builder" | "viewer";
                    /** @default false */
                    tenant_admin?: boolean;
                    username?: string;
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token and the body sets any of password, tenant_admin: true: these manage credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usersGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usersUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    /** @enum {string} */
                    role?: "admin" | "connector_builder" | "viewer";
                    tenant_admin?: boolean;
                    username?: string | null;
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token and the body sets any of email, tenant_admin: these manage credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usersDisable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usersEnable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    userFederatedIdentitiesList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Federated identities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        federated_identities: components["schemas"]["FederatedIdentity"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    userFederatedIdentityUnlink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                identity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    usersMfaReset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MFA reset; every session of the user ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this; or the credential is a personal access token, which never manages credentials (sign in) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    workspacesList: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Workspaces */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        workspaces: components["schemas"]["Workspace"][];
                    };
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    workspacesCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description limit_exceeded: the tenant has 1000 workspaces */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    workspacesOwnerTransfer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    new_owner_id: string;
                };
            };
        };
        responses: {
            /** @description Workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description validation_failed or malformed_json: the request is not what this operation accepts (the problem's `errors` name each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA) */
            401: {
                headers: {
                    /** @description The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description forbidden: the credential's role or scopes do not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description payload_too_large: the body is over 64 KiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description rate_limited: too many attempts; retry after the time Retry-After gives */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again (RFC 9110). */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
