/** Request and response schemas of federated identity linking (your own, and a tenant admin's view of a user's). */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../../schemas/field-schemas';
import { AbsoluteUrl, providerTypes } from './schemas';

/** What the client gives to begin a link: the same as `/start` (the redirect URI must be on the tenant's allow-list). */
export const FederatedIdentityLinkBodySchema = z.strictObject({
  redirect_uri: AbsoluteUrl,
  state: z.optional(z.string().check(z.regex(/^[\x21-\x7e]{1,512}$/, { message: 'must be 1 to 512 visible ASCII characters' }))),
});

export const FederatedIdentityLinkResponseSchema = z
  .object({ authorization_url: z.string().check(z.meta({ description: 'Send the browser here; the IdP returns it to the callback, which redirects to redirect_uri?linked=true&federated_identity_id=… (or ?error=…)' })) })
  .register(z.globalRegistry, { id: 'FederatedIdentityLinkStart' });

export const FederatedIdentitySchema = z
  .object({ id: z.string(), provider_type: z.enum(providerTypes), issuer: z.string(), subject: z.string(), created_at: TimestampSchema })
  .register(z.globalRegistry, { id: 'FederatedIdentity' });

export const FederatedIdentityListSchema = z.object({ federated_identities: z.array(FederatedIdentitySchema), next_cursor: z.nullable(z.string()) });

export const UserFederatedIdentityPathSchema = z.strictObject({ id: idOf('usr'), identity_id: idOf('ext') });
