/** Request and response schemas of SSO login: email-domain discovery, start and the IdP's callback. */
import * as z from 'zod/mini';
import { Email, TenantSlug } from '../schemas';
import { AbsoluteUrl, providerTypes } from './schemas';

export const DiscoverQuerySchema = z.strictObject({ email: Email });

export const DiscoverResponseSchema = z.object({
  tenant: z.string(),
  methods: z.array(z.enum(['password', 'sso'])),
  sso: z.nullable(z.object({ provider_type: z.enum(providerTypes), start_url: z.string() })),
});

export const SsoTenantPathSchema = z.strictObject({ tenant: TenantSlug });

export const SsoStartQuerySchema = z.strictObject({
  redirect_uri: AbsoluteUrl,
  /** The client's own state, echoed on the final redirect (login CSRF protection for the client). */
  state: z.optional(z.string().check(z.regex(/^[\x21-\x7e]{1,512}$/, { message: 'must be 1 to 512 visible ASCII characters' }))),
  /** RFC 7636 S256 challenge binding the sso_code to the client that began the login. */
  code_challenge: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be a base64url SHA-256 (43 characters)' }))),
  code_challenge_method: z.optional(z.literal('S256')),
}).check(z.refine((q) => q.code_challenge_method === undefined || q.code_challenge !== undefined, { message: 'code_challenge_method needs a code_challenge', path: ['code_challenge'] }));

/** What an IdP sends back: OIDC (query or form_post) or SAML (HTTP-POST). */
const CallbackFields = {
  code: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  state: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
  iss: z.optional(z.string().check(z.maxLength(2048))),
  session_state: z.optional(z.string().check(z.maxLength(2048))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(2048))),
  error_uri: z.optional(z.string().check(z.maxLength(2048))),
};

export const SsoCallbackQuerySchema = z.strictObject(CallbackFields);

export const SsoCallbackFormSchema = z.strictObject({
  ...CallbackFields,
  SAMLResponse: z.optional(z.string().check(z.minLength(1), z.maxLength(60_000))),
  RelayState: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
});

export type SsoCallbackParams = z.infer<typeof SsoCallbackFormSchema>;
