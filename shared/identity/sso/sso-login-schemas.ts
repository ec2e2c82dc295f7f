/** Request and response schemas of SSO login: email-domain discovery, start and the IdP's callback. */
import * as z from 'zod';
import { Email, TenantSlug } from '../schemas';
import { AbsoluteUrl, providerTypes } from './schemas';

export const DiscoverQuerySchema = z.strictObject({ email: Email });

export const DiscoverResponseSchema = z.object({
  tenant: z.string(),
  methods: z.array(z.enum(['password', 'sso'])),
  sso: z.object({ provider_type: z.enum(providerTypes), start_url: z.string() }).nullable(),
});

export const SsoTenantPathSchema = z.strictObject({ tenant: TenantSlug });

export const SsoStartQuerySchema = z.strictObject({
  redirect_uri: AbsoluteUrl,
  /** The client's own state, echoed on the final redirect (login CSRF protection for the client). */
  state: z.string().regex(/^[\x21-\x7e]{1,512}$/, { message: 'must be 1 to 512 visible ASCII characters' }).optional(),
  /** RFC 7636 S256 challenge binding the sso_code to the client that began the login. */
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be a base64url SHA-256 (43 characters)' }).optional(),
  code_challenge_method: z.literal('S256').optional(),
}).refine((q) => q.code_challenge_method === undefined || q.code_challenge !== undefined, { message: 'code_challenge_method needs a code_challenge', path: ['code_challenge'] });

/** What an IdP sends back: OIDC (query or form_post) or SAML (HTTP-POST). */
const CallbackFields = {
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(512).optional(),
  iss: z.string().max(2048).optional(),
  session_state: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  error_uri: z.string().max(2048).optional(),
};

export const SsoCallbackQuerySchema = z.strictObject(CallbackFields);

export const SsoCallbackFormSchema = z.strictObject({
  ...CallbackFields,
  SAMLResponse: z.string().min(1).max(60_000).optional(),
  RelayState: z.string().min(1).max(512).optional(),
});

export type SsoCallbackParams = z.infer<typeof SsoCallbackFormSchema>;
