/**
 * What the IdP form edits, and the request bodies made from it. The client secret is
 * write-only: the form never gets it back, and an edit leaves it out unless one was typed
 * (the API then keeps the stored one).
 */
import type { Schemas } from '../api/client';

type IdpConfig = Schemas['IdpConfig'];
export type ProviderType = IdpConfig['provider_type'];
export type Role = IdpConfig['default_role'];

export interface IdpFormValues {
  providerType: ProviderType;
  issuer: string;
  clientId: string;
  clientSecret: string;
  samlMetadata: string;
  samlSubjectAttribute: string;
  emailDomains: string[];
  redirectUris: string;
  defaultRole: Role;
  active: boolean;
}

export function emptyValues(consoleRedirectUri: string): IdpFormValues {
  return { providerType: 'oidc', issuer: '', clientId: '', clientSecret: '', samlMetadata: '', samlSubjectAttribute: '', emailDomains: [], redirectUris: consoleRedirectUri, defaultRole: 'viewer', active: true };
}

export function valuesOf(config: IdpConfig): IdpFormValues {
  return {
    providerType: config.provider_type,
    issuer: config.issuer ?? '',
    clientId: config.client_id ?? '',
    clientSecret: '',
    samlMetadata: config.saml_metadata ?? '',
    samlSubjectAttribute: config.saml_subject_attribute ?? '',
    emailDomains: config.email_domains,
    redirectUris: config.allowed_redirect_uris.join('\n'),
    defaultRole: config.default_role,
    active: config.active,
  };
}

/** Fields of the other provider type are left out; blanks are omitted so the API names what is missing. */
export function createBody(values: IdpFormValues) {
  return {
    provider_type: values.providerType,
    active: values.active,
    default_role: values.defaultRole,
    email_domains: values.emailDomains,
    allowed_redirect_uris: lines(values.redirectUris),
    ...(values.providerType === 'oidc'
      ? { ...optional('issuer', values.issuer), ...optional('client_id', values.clientId), ...optional('client_secret', values.clientSecret) }
      : { ...optional('saml_metadata', values.samlMetadata), ...optional('saml_subject_attribute', values.samlSubjectAttribute) }),
  };
}

export function updateBody(values: IdpFormValues) {
  const body = createBody(values);
  // An empty subject attribute on an edit means "clear it" (API.md: null in a PATCH clears it).
  return values.providerType === 'saml' && !values.samlSubjectAttribute.trim() ? { ...body, saml_subject_attribute: null } : body;
}

function lines(text: string): string[] {
  return text.split('\n').map((line) => line.trim()).filter(Boolean);
}

function optional<K extends string>(key: K, value: string): Partial<Record<K, string>> {
  const trimmed = value.trim();
  return trimmed ? ({ [key]: trimmed } as Record<K, string>) : {};
}
