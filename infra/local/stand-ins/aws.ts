/**
 * A local AWS that answers STS (`GetCallerIdentity`, `AssumeRole`) and IAM
 * (`SimulatePrincipalPolicy`, `GetAccountAuthorizationDetails`, `ListAccountAliases`) over the
 * Query protocol, in AWS's XML, on one loopback port (point both `endpoints.sts` and
 * `endpoints.iam` at it). Requests must be SigV4-signed with a known key and its secret (or a
 * session issued by AssumeRole, with its token), as at AWS. Several accounts, each with its IAM
 * contents (aws-iam-directory.ts) and roles to assume; a session reads the account of its role.
 *
 * What it reproduces of the IAM API reference:
 * - GetAccountAuthorizationDetails: `Filter.member.N` (User, Group, Role, LocalManagedPolicy,
 *   AWSManagedPolicy), `MaxItems` (default 100) and an opaque `Marker` answered while
 *   `IsTruncated`; IAM "might return fewer results, even when there are more" (`detailsPageSize`
 *   caps a page below `MaxItems`), and a marker from another filter is refused (InvalidInput).
 *   Members carry URL-encoded policy documents; a managed policy lists all its versions with
 *   `IsDefaultVersion`; AWS managed policies appear only when attached in the account.
 * - ListAccountAliases: at most one alias.
 * - Refusals: AccessDenied, HTTP 403, in AWS's XML error body ("User: … is not authorized to
 *   perform: …"), per action and per principal (`denied`).
 * - Throttling: `Throttling` ("Rate exceeded", HTTP 400) for a whole service (`throttle`) or for
 *   the next N calls of one action (`throttleBurst`), as IAM's per-account limits answer.
 * Tests change `state` to deny actions, throttle or hang a service, or answer an action as they
 * write it (`replies`, built with `okReply` / `errorReply`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { detailsItems, detailsXml, sampleDirectory, type FakeIamAccount } from './aws-iam-directory';
import { startLocalServer, type LocalReply, type LocalRequest } from './local-server';
import { parseSigV4 } from './sigv4';

export const AWS_ACCOUNT = '123456789012';
/** A second account of the same organization, read through a role of the same name. */
export const AWS_SECOND_ACCOUNT = '210987654321';

export interface FakeAwsUser {
  arn: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface FakeAwsRole {
  /** With a path, as real roles often have: the session ARN drops it. */
  arn: string;
  /** Principals the trust policy allows to assume the role. */
  trustedArns: string[];
  externalId?: string;
}

/** Why an action is not allowed; anything not listed is allowed. */
export type FakeDenial = 'implicitDeny' | 'scp' | 'boundary' | { explicitDenyBy: string };

export interface FakeAwsState {
  users: FakeAwsUser[];
  roles: FakeAwsRole[];
  /** Per IAM principal ARN (user or role), the actions it is not allowed. */
  denied: Record<string, Record<string, FakeDenial>>;
  throttle?: 'sts' | 'iam';
  /** The next `count` calls of `action` answer Throttling. */
  throttleBurst?: { action: string; count: number };
  hang?: 'sts' | 'iam';
  simulationPageSize: number;
  /** IAM contents per account id. */
  accounts: Record<string, FakeIamAccount>;
  /** Most items a GetAccountAuthorizationDetails page holds, whatever MaxItems asks. */
  detailsPageSize: number;
  /** Per action, the answer to give a signed request instead of the fake's own (sparse answers, other errors). */
  replies?: Record<string, LocalReply>;
}

export interface FakeAwsCall {
  service: string;
  action: string;
  params: URLSearchParams;
  accessKeyId: string | undefined;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface FakeAws {
  url: string;
  state: FakeAwsState;
  calls: FakeAwsCall[];
  /** Secret keys and session tokens of the role sessions issued so far (none may leak). */
  issuedSecrets: string[];
  close(): Promise<void>;
}

export const awsUser: FakeAwsUser = {
  arn: `arn:aws:iam::${AWS_ACCOUNT}:user/tessera-discovery`,
  accessKeyId: 'AKIATESSERADISCOVER1',
  secretAccessKey: 'tesseraLocalSecretKey/ForTheFakeAws+0000',
};

export const awsRole: FakeAwsRole = {
  arn: `arn:aws:iam::${AWS_ACCOUNT}:role/discovery/TesseraDiscovery`,
  trustedArns: [awsUser.arn],
  externalId: 'tessera-external-7f3c9a2e',
};

/** The role of the same path and name in the second account, trusting the same user and external id. */
export const awsSecondRole: FakeAwsRole = { ...awsRole, arn: `arn:aws:iam::${AWS_SECOND_ACCOUNT}:role/discovery/TesseraDiscovery` };

export function sampleAccounts(): Record<string, FakeIamAccount> {
  return sampleDirectory(AWS_ACCOUNT, AWS_SECOND_ACCOUNT, 'tessera-discovery');
}

interface Session {
  secretAccessKey: string;
  sessionToken: string;
  roleArn: string;
  sessionArn: string;
}

interface Caller {
  arn: string;
  /** The IAM entity whose policies apply: the user, or the role behind a session. */
  policyArn: string;
}

const NAMESPACE = { sts: 'https://sts.amazonaws.com/doc/2011-06-15/', iam: 'https://iam.amazonaws.com/doc/2010-05-08/' } as const;

export async function startFakeAws(initial: Partial<FakeAwsState> = {}, port = 0): Promise<FakeAws> {
  const state: FakeAwsState = {
    users: [awsUser],
    roles: [awsRole, awsSecondRole],
    denied: {},
    simulationPageSize: 100,
    accounts: sampleAccounts(),
    detailsPageSize: 100,
    ...initial,
  };
  const sessions = new Map<string, Session>();
  const calls: FakeAwsCall[] = [];
  const issuedSecrets: string[] = [];

  const handle = (request: LocalRequest): LocalReply | 'hang' => {
    const signed = parseSigV4(request);
    const params = new URLSearchParams(request.body);
    const action = params.get('Action') ?? '';
    const service = signed?.service === 'iam' ? 'iam' : 'sts';
    calls.push({ service, action, params, accessKeyId: signed?.accessKeyId, at: Date.now() });

    if (state.hang === service) return 'hang';
    if (state.throttle === service) return errorReply(service, 400, 'Throttling', 'Rate exceeded');
    if (state.throttleBurst?.action === action && state.throttleBurst.count > 0) {
      state.throttleBurst.count -= 1;
      return errorReply(service, 400, 'Throttling', 'Rate exceeded');
    }
    if (!signed) return errorReply(service, 403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');

    const caller = authenticate(signed, request);
    if ('status' in caller) return caller;
    const canned = state.replies?.[action];
    if (canned) return canned;

    if (service === 'sts' && action === 'GetCallerIdentity') {
      const account = accountOf(caller.arn);
      return okReply('sts', action, `<Arn>${xml(caller.arn)}</Arn><UserId>AIDA${account}</UserId><Account>${account}</Account>`);
    }
    if (service === 'sts' && action === 'AssumeRole') return assumeRole(caller, params);
    if (service === 'iam' && action === 'SimulatePrincipalPolicy') return simulate(caller, params);
    if (service === 'iam' && (action === 'GetAccountAuthorizationDetails' || action === 'ListAccountAliases')) {
      if (state.denied[caller.policyArn]?.[`iam:${action}`]) {
        return errorReply('iam', 403, 'AccessDenied', `User: ${caller.arn} is not authorized to perform: iam:${action} on resource: * because no identity-based policy allows the iam:${action} action`);
      }
      const directory = state.accounts[accountOf(caller.policyArn)] ?? { users: [], groups: [], roles: [], policies: [] };
      if (action === 'ListAccountAliases') {
        const aliases = directory.alias ? `<member>${xml(directory.alias)}</member>` : '';
        return okReply('iam', action, `<IsTruncated>false</IsTruncated><AccountAliases>${aliases}</AccountAliases>`);
      }
      return authorizationDetails(accountOf(caller.policyArn), directory, params);
    }
    return errorReply(service, 400, 'InvalidAction', `Could not find operation ${action}`);
  };

  function authenticate(signed: NonNullable<ReturnType<typeof parseSigV4>>, request: LocalRequest): Caller | LocalReply {
    const service = signed.service === 'iam' ? 'iam' : 'sts';
    const user = state.users.find((u) => u.accessKeyId === signed.accessKeyId);
    const session = sessions.get(signed.accessKeyId);
    const secret = user?.secretAccessKey ?? session?.secretAccessKey;
    if (!secret) return errorReply(service, 403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
    if (!signed.verify(secret)) {
      return errorReply(service, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
    if (user) return { arn: user.arn, policyArn: user.arn };
    if (!session || request.headers['x-amz-security-token'] !== session.sessionToken) {
      return errorReply(service, 403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
    }
    return { arn: session.sessionArn, policyArn: session.roleArn };
  }

  function assumeRole(caller: Caller, params: URLSearchParams): LocalReply {
    const roleArn = params.get('RoleArn') ?? '';
    const role = state.roles.find((r) => r.arn === roleArn);
    const trusted = role && role.trustedArns.includes(caller.arn) && (role.externalId === undefined || role.externalId === params.get('ExternalId'));
    if (!trusted || state.denied[caller.policyArn]?.['sts:AssumeRole']) {
      return errorReply('sts', 403, 'AccessDenied', `User: ${caller.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`);
    }
    const session: Session = {
      secretAccessKey: randomBytes(30).toString('base64'),
      sessionToken: randomBytes(48).toString('base64'),
      roleArn,
      sessionArn: `arn:aws:sts::${accountOf(roleArn)}:assumed-role/${roleArn.split('/').at(-1)}/${params.get('RoleSessionName') ?? ''}`,
    };
    const accessKeyId = `ASIA${randomBytes(8).toString('hex').toUpperCase()}`;
    sessions.set(accessKeyId, session);
    issuedSecrets.push(session.secretAccessKey, session.sessionToken);
    return okReply(
      'sts',
      'AssumeRole',
      `<Credentials><AccessKeyId>${accessKeyId}</AccessKeyId><SecretAccessKey>${xml(session.secretAccessKey)}</SecretAccessKey>` +
        `<SessionToken>${xml(session.sessionToken)}</SessionToken><Expiration>${new Date(Date.now() + 900_000).toISOString()}</Expiration></Credentials>` +
        `<AssumedRoleUser><AssumedRoleId>AROA${accountOf(roleArn)}:${xml(params.get('RoleSessionName') ?? '')}</AssumedRoleId><Arn>${xml(session.sessionArn)}</Arn></AssumedRoleUser>`,
    );
  }

  function simulate(caller: Caller, params: URLSearchParams): LocalReply {
    if (state.denied[caller.policyArn]?.['iam:SimulatePrincipalPolicy']) {
      return errorReply('iam', 403, 'AccessDenied', `User: ${caller.arn} is not authorized to perform: iam:SimulatePrincipalPolicy`);
    }
    const source = params.get('PolicySourceArn') ?? '';
    // IAM evaluates users, groups and roles; a session ARN is not an IAM entity.
    if (source.includes(':assumed-role/')) return errorReply('iam', 400, 'InvalidInput', `Invalid ARN: ${source}`);
    const known = state.users.some((u) => u.arn === source) || state.roles.some((r) => r.arn === source);
    if (!known) return errorReply('iam', 404, 'NoSuchEntity', `The entity ${source} cannot be found.`);

    const actions = [...params.entries()].filter(([k]) => k.startsWith('ActionNames.member.')).map(([, v]) => v);
    const start = Number(params.get('Marker') ?? '0');
    const page = actions.slice(start, start + state.simulationPageSize);
    const next = start + page.length;
    const members = page.map((action) => evaluation(action, state.denied[source]?.[action])).join('');
    const truncated = next < actions.length;
    return okReply(
      'iam',
      'SimulatePrincipalPolicy',
      `<IsTruncated>${truncated}</IsTruncated>${truncated ? `<Marker>${next}</Marker>` : ''}<EvaluationResults>${members}</EvaluationResults>`,
    );
  }

  function authorizationDetails(account: string, directory: FakeIamAccount, params: URLSearchParams): LocalReply {
    const filter = [...params.entries()].filter(([k]) => k.startsWith('Filter.member.')).map(([, v]) => v).sort();
    const maxItems = Number(params.get('MaxItems') ?? '100');
    if (!Number.isInteger(maxItems) || maxItems < 1 || maxItems > 1000) return errorReply('iam', 400, 'ValidationError', 'MaxItems must be between 1 and 1000');
    let start = 0;
    const marker = params.get('Marker');
    if (marker !== null) {
      const decoded = decodeMarker(marker);
      if (!decoded || decoded.filter !== filter.join(',')) return errorReply('iam', 400, 'InvalidInput', 'Invalid Marker.');
      start = decoded.offset;
    }
    const items = detailsItems(directory, filter);
    const page = items.slice(start, start + Math.min(maxItems, state.detailsPageSize));
    const next = start + page.length;
    const truncated = next < items.length;
    return okReply(
      'iam',
      'GetAccountAuthorizationDetails',
      `<IsTruncated>${truncated}</IsTruncated>${truncated ? `<Marker>${encodeMarker(filter.join(','), next)}</Marker>` : ''}${detailsXml(account, page, directory)}`,
    );
  }

  const server = await startLocalServer(handle, port);
  return { url: server.url, state, calls, issuedSecrets, close: () => server.close() };
}

function evaluation(action: string, denial: FakeDenial | undefined): string {
  const decision = denial === undefined ? 'allowed' : typeof denial === 'object' ? 'explicitDeny' : 'implicitDeny';
  const matched =
    typeof denial === 'object'
      ? `<MatchedStatements><member><SourcePolicyId>${xml(denial.explicitDenyBy)}</SourcePolicyId><SourcePolicyType>IAM Policy</SourcePolicyType></member></MatchedStatements>`
      : '<MatchedStatements/>';
  return (
    `<member><EvalActionName>${xml(action)}</EvalActionName><EvalResourceName>*</EvalResourceName><EvalDecision>${decision}</EvalDecision>${matched}<MissingContextValues/>` +
    `<OrganizationsDecisionDetail><AllowedByOrganizations>${denial !== 'scp'}</AllowedByOrganizations></OrganizationsDecisionDetail>` +
    (denial === 'boundary' ? '<PermissionsBoundaryDecisionDetail><AllowedByPermissionsBoundary>false</AllowedByPermissionsBoundary></PermissionsBoundaryDecisionDetail>' : '') +
    `</member>`
  );
}

export function okReply(service: 'sts' | 'iam', action: string, result: string): LocalReply {
  return {
    status: 200,
    headers: { 'content-type': 'text/xml' },
    body:
      `<${action}Response xmlns="${NAMESPACE[service]}"><${action}Result>${result}</${action}Result>` +
      `<ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`,
  };
}

export function errorReply(service: 'sts' | 'iam', status: number, code: string, message: string): LocalReply {
  return {
    status,
    headers: { 'content-type': 'text/xml' },
    body: `<ErrorResponse xmlns="${NAMESPACE[service]}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${xml(message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  };
}

/** IAM markers are opaque to clients; this one names the filter it belongs to and the next item. */
function encodeMarker(filter: string, offset: number): string {
  return Buffer.from(JSON.stringify({ filter, offset, salt: randomBytes(6).toString('hex') })).toString('base64');
}

function decodeMarker(marker: string): { filter: string; offset: number } | undefined {
  try {
    const value = JSON.parse(Buffer.from(marker, 'base64').toString('utf8')) as { filter?: unknown; offset?: unknown };
    return typeof value.filter === 'string' && typeof value.offset === 'number' ? { filter: value.filter, offset: value.offset } : undefined;
  } catch {
    return undefined;
  }
}

function accountOf(arn: string): string {
  return /^arn:[^:]+:[^:]+::(\d{12}):/.exec(arn)?.[1] ?? '';
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
