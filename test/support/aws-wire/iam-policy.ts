/**
 * The part of IAM policy evaluation the local AWS servers need to refuse a call the way AWS
 * does (IAM User Guide, "Policy evaluation logic" and "IAM JSON policy elements: Condition
 * operators"): an explicit `Deny` wins, else an `Allow` whose Action, Resource and every
 * Condition match, else the implicit deny. Condition operators: `StringEquals`, `StringLike`,
 * `Null`, and the set operators `ForAllValues:` / `ForAnyValue:` over a multivalued key such as
 * `kms:EncryptionContextKeys`. Statements are IAM JSON (what CDK's
 * `PolicyStatement.toStatementJson()` gives), so a test can hand the stack's own statements in.
 * An operator it does not know throws: a policy it cannot judge must not quietly allow.
 */

export interface IamStatement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** The condition keys of one request: a string, a list (multivalued keys), or absent. */
export type RequestConditionKeys = Record<string, string | string[] | undefined>;

/** Everything allowed: the default of a server until a test narrows it. */
export const ALLOW_ALL: IamStatement[] = [{ Effect: 'Allow', Action: '*', Resource: '*' }];

const list = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

/** IAM wildcards: `*` any run of characters, `?` one character; actions compare case-insensitively. */
function wildcardMatches(pattern: string, value: string, ignoreCase = false): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '').test(value);
}

function conditionHolds(operator: string, key: string, expected: string[], keys: RequestConditionKeys): boolean {
  const actual = keys[key];
  const values = actual === undefined ? [] : list(actual);
  const [qualifier, base] = operator.includes(':') ? operator.split(':', 2) as [string, string] : [undefined, operator];
  const matches = (value: string): boolean => {
    if (base === 'StringEquals') return expected.includes(value);
    if (base === 'StringLike') return expected.some((pattern) => wildcardMatches(pattern, value));
    throw new Error(`IAM condition operator ${operator} is not reproduced here`);
  };
  if (qualifier === 'ForAllValues') return values.every(matches);
  if (qualifier === 'ForAnyValue') return values.some(matches);
  if (qualifier !== undefined) throw new Error(`IAM condition operator ${operator} is not reproduced here`);
  if (base === 'Null') return expected.includes(actual === undefined ? 'true' : 'false');
  // A single-valued operator on an absent key does not match (IAM: the condition is false).
  return actual !== undefined && !Array.isArray(actual) && matches(actual);
}

function statementMatches(statement: IamStatement, action: string, resource: string, keys: RequestConditionKeys): boolean {
  if (!list(statement.Action).some((pattern) => wildcardMatches(pattern, action, true))) return false;
  if (!list(statement.Resource).some((pattern) => wildcardMatches(pattern, resource))) return false;
  return Object.entries(statement.Condition ?? {}).every(([operator, byKey]) =>
    Object.entries(byKey).every(([key, expected]) => conditionHolds(operator, key, list(expected), keys)),
  );
}

export function isAllowed(statements: readonly IamStatement[], action: string, resource: string, keys: RequestConditionKeys = {}): boolean {
  const matching = statements.filter((statement) => statementMatches(statement, action, resource, keys));
  return !matching.some((s) => s.Effect === 'Deny') && matching.some((s) => s.Effect === 'Allow');
}

/** The message AWS gives an identity-based implicit deny. */
export function notAuthorizedMessage(callerArn: string, action: string, resource: string): string {
  return `User: ${callerArn} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`;
}
