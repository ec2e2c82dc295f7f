/**
 * What an IAM policy document grants, read the way discovery needs it: the actions and the
 * named resources of its `Allow` statements, and the principals a role's trust policy lets in.
 *
 * GetAccountAuthorizationDetails answers documents URL-encoded (RFC 3986) and the AWS SDK for
 * JavaScript hands them over as they came, so they are decoded here; a document that is
 * already plain JSON is accepted as well. Conditions are not evaluated: a statement counts as
 * granting what it names even if a condition narrows it at request time (documented in the
 * catalog's blind spots).
 */

export interface PolicyGrants {
  /** `Action` values of the Allow statements (`s3:GetObject`, `s3:*`, `*`), sorted. */
  actions: string[];
  /** `Resource` values of the Allow statements other than `*` (ARNs and ARN patterns), sorted. */
  resources: string[];
  /** An Allow statement applies to every resource (`Resource: "*"` or any `NotResource`). */
  allResources: boolean;
  /** An Allow statement uses `NotAction`: it grants everything but what it lists. */
  notAction: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `undefined` when the text is neither URL-encoded JSON nor JSON. */
export function decodePolicyDocument(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return parse(trimmed);
  try {
    return parse(decodeURIComponent(trimmed));
  } catch {
    return undefined; // malformed percent-encoding
  }
}

export function allowGrants(document: Json | undefined): PolicyGrants {
  const actions = new Set<string>();
  const resources = new Set<string>();
  let allResources = false;
  let notAction = false;
  for (const statement of allowStatements(document)) {
    for (const action of strings(statement.Action)) actions.add(action);
    if (statement.NotAction !== undefined) notAction = true;
    if (statement.NotResource !== undefined) allResources = true;
    for (const resource of strings(statement.Resource)) {
      if (resource === '*') allResources = true;
      else resources.add(resource);
    }
  }
  return { actions: [...actions].sort(), resources: [...resources].sort(), allResources, notAction };
}

/**
 * Who may assume a role: `AWS:<arn or account>`, `Service:<service principal>`,
 * `Federated:<provider>`, `CanonicalUser:<id>`, or `*`, from the Allow statements of its trust
 * policy; sorted.
 */
export function trustedPrincipals(document: Json | undefined): string[] {
  const principals = new Set<string>();
  for (const statement of allowStatements(document)) {
    const principal = statement.Principal;
    if (principal === '*') principals.add('*');
    else if (isObject(principal)) {
      for (const [type, values] of Object.entries(principal)) {
        for (const value of strings(values)) principals.add(`${type}:${value}`);
      }
    }
  }
  return [...principals].sort();
}

function allowStatements(document: Json | undefined): { [key: string]: Json }[] {
  if (!isObject(document)) return [];
  const statements = Array.isArray(document.Statement) ? document.Statement : [document.Statement];
  return statements.filter((s): s is { [key: string]: Json } => isObject(s) && s.Effect === 'Allow');
}

function strings(value: Json | undefined): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}
