/**
 * Discovery of cloud provider A (AWS): one track per account in scope, `account:<id>`, read in
 * phases of IAM GetAccountAuthorizationDetails, one provider page per `readPage`:
 *
 *   groups → users → roles → policies → aliases → (refusal) → done
 *
 * Each GetAccountAuthorizationDetails phase asks for one entity type (`Filter`) and follows
 * `Marker` while `IsTruncated`; the cursor is `{phase, marker, refused}` and nothing else. Groups
 * come first because a user names its groups by name only (`GroupList`): the users phase resolves
 * names to ARNs and policies with a group index read again once per step (kept in
 * `context.session`, never in the cursor, which must stay small).
 *
 * Access: the account of `role_arn` is read through that role; any other account through the
 * role of the same path and name in that account, assumed from the configured keys with the
 * same external id. Without `role_arn`, only the keys' own account can be read.
 *
 * A refused read (AccessDenied) skips what needs that action and the track goes on; once
 * everything else is read, the track ends `refused` with the exact statement to attach.
 */
import { GetAccountAuthorizationDetailsCommand, ListAccountAliasesCommand, type EntityType, type GetAccountAuthorizationDetailsCommandOutput, type IAMClient } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import * as z from 'zod/mini';
import { groupIndexOf, mapBoundary, mapGroups, mapManagedPolicies, mapRoles, mapUsers, type GroupIndex } from './authorization-details';
import { AwsDiscoveryClients, type AwsCall, type AwsCredentials } from './discovery-clients';
import type { AwsFailure } from './errors';
import { GET_ACCOUNT_AUTHORIZATION_DETAILS, LIST_ACCOUNT_ALIASES } from './permissions';
import { awsFailureItem, cannotAssumeRole, missingPermission, noRoleForAccount, rootUserKeys, stsRegionDisabled, unevaluablePrincipal, type AwsPermission } from './remediation';
import { awsTracks, type AwsConfiguration, type AwsScope } from './integration';
import type { Discovery, DiscoveryContext, PageOutcome, TrackCursor } from '../discovery';
import { PageBuilder, failed, readNeverThrows, refused } from '../discovery-page';
import { startTimer, unexpectedAnswer } from '../outcome';

const PROVIDER = 'AWS';
const TRACK = /^account:(\d{12})$/;
/** IAM's default page size; IAM may answer fewer items and still say IsTruncated. */
export const AWS_PAGE_SIZE = 100;
/** Bounds the group index read (IAM allows at most a few hundred groups per account). */
const MAX_INDEX_PAGES = 100;
const ROLE_SESSION_NAME = 'tessera-discovery';
/** Role sessions are re-made when they have less than this left. */
const SESSION_MARGIN_MS = 60_000;

/** `refusal` only answers the refusals collected on the way, after the last page was delivered. */
const PHASES = ['groups', 'users', 'roles', 'policies', 'aliases', 'refusal'] as const;
type Phase = (typeof PHASES)[number];

const FILTER: Record<Exclude<Phase, 'aliases' | 'refusal'>, EntityType[]> = {
  groups: ['Group'],
  users: ['User'],
  roles: ['Role'],
  policies: ['LocalManagedPolicy', 'AWSManagedPolicy'],
};

/** After the last page of a GetAccountAuthorizationDetails phase. */
const NEXT_PHASE: Record<keyof typeof FILTER, Phase> = { groups: 'users', users: 'roles', roles: 'policies', policies: 'aliases' };

const CursorSchema = z.strictObject({
  phase: z.enum(PHASES),
  marker: z.nullable(z.string().check(z.minLength(1), z.maxLength(2048))),
  /** IAM actions refused so far in this track. */
  refused: z.array(z.string().check(z.maxLength(128))).check(z.maxLength(8)),
});
type Cursor = z.infer<typeof CursorSchema>;

const START: Cursor = { phase: 'groups', marker: null, refused: [] };

export const awsDiscovery: Discovery<AwsConfiguration, AwsScope> = {
  tracks: awsTracks,
  readPage: ({ configuration, scope }, track, cursor, context) => readNeverThrows(PROVIDER, () => readPage(configuration, scope, track, cursor, context)),
};

async function readPage(
  configuration: AwsConfiguration,
  scope: AwsScope,
  track: string,
  saved: TrackCursor | null,
  context: DiscoveryContext,
): Promise<PageOutcome> {
  const account = TRACK.exec(track)?.[1];
  if (!account || !scope.account_ids.includes(account)) return failed([unexpectedAnswer(PROVIDER, `track ${track} is not an account in scope`)]);
  const parsed = saved === null ? { success: true as const, data: START } : CursorSchema.safeParse(saved);
  if (!parsed.success) return failed([unexpectedAnswer(PROVIDER, 'the saved cursor is not one this connector writes')]);

  const aws = new AwsDiscoveryClients(configuration.region, context);
  try {
    const read = new AccountRead(aws, configuration, account, context);
    const access = await read.access();
    if ('kind' in access) return access;
    return await read.phase(parsed.data, access);
  } finally {
    aws.close();
  }
}

interface Access {
  credentials: AwsCredentials;
  /** The IAM principal whose policies apply: what a missing permission is attached to. */
  principalArn: string;
}

class AccountRead {
  private readonly elapsed = startTimer();
  private readonly base: AwsCredentials;

  constructor(
    private readonly aws: AwsDiscoveryClients,
    private readonly configuration: AwsConfiguration,
    private readonly account: string,
    private readonly context: DiscoveryContext,
  ) {
    this.base = { accessKeyId: configuration.access_key_id, secretAccessKey: configuration.secret_access_key };
  }

  async access(): Promise<Access | PageOutcome> {
    const roleArn = this.configuration.role_arn;
    if (roleArn) return this.assumed(roleArnIn(roleArn, this.account));

    const caller = await this.callerArn();
    if (!caller.ok) return this.stsOutcome(caller);
    const arn = caller.value;
    const root = /^arn:[^:]+:iam::(\d{12}):root$/.exec(arn);
    if (root) return failed([rootUserKeys(root[1]!)]);
    const user = /^arn:[^:]+:iam::(\d{12}):user\//.exec(arn);
    if (!user) return failed([unevaluablePrincipal(arn)]);
    if (user[1] !== this.account) return refused([noRoleForAccount(this.account, arn)]);
    return { credentials: this.base, principalArn: arn };
  }

  async phase(cursor: Cursor, access: Access): Promise<PageOutcome> {
    if (cursor.phase === 'refusal') {
      return refused(
        [GET_ACCOUNT_AUTHORIZATION_DETAILS, LIST_ACCOUNT_ALIASES]
          .filter((p) => cursor.refused.includes(p.action))
          .map((permission: AwsPermission) => missingPermission(permission, access.principalArn)),
      );
    }
    const iam = this.aws.iam(access.credentials, this.account);
    const page = new PageBuilder();
    if (cursor.phase === 'aliases') {
      const aliases = await this.aws.call(`aws:iam:${this.account}`, (abortSignal) => iam.send(new ListAccountAliasesCommand({}), { abortSignal }));
      if (!aliases.ok && aliases.failure.kind !== 'access-denied') return this.iamOutcome(aliases);
      // Refused, the account is still a boundary: named by its id until the alias may be read.
      mapBoundary(this.account, aliases.ok ? (aliases.value.AccountAliases ?? []) : [], page);
      const refusedActions = aliases.ok ? cursor.refused : [...cursor.refused, LIST_ACCOUNT_ALIASES.action];
      return page.page(refusedActions.length === 0 ? null : { phase: 'refusal', marker: null, refused: refusedActions }, PROVIDER);
    }

    let groups: GroupIndex = new Map();
    if (cursor.phase === 'users') {
      const index = await this.groupIndex(iam);
      if (!index.ok) return this.detailsRefusedOrOutcome(index, cursor);
      groups = index.value;
    }
    const details = await this.details(iam, FILTER[cursor.phase], cursor.marker);
    if (!details.ok) return this.detailsRefusedOrOutcome(details, cursor);

    const answer = details.value;
    if (cursor.phase === 'groups') mapGroups(this.account, answer.GroupDetailList ?? [], page);
    if (cursor.phase === 'users') mapUsers(this.account, answer.UserDetailList ?? [], groups, page);
    if (cursor.phase === 'roles') mapRoles(this.account, answer.RoleDetailList ?? [], page);
    if (cursor.phase === 'policies') mapManagedPolicies(answer.Policies ?? [], page);

    const marker = answer.IsTruncated ? answer.Marker : undefined;
    const next: Cursor = marker ? { ...cursor, marker } : { ...cursor, phase: NEXT_PHASE[cursor.phase], marker: null };
    return page.page(next, PROVIDER);
  }

  /** GetAccountAuthorizationDetails refused: every phase needs it, so only the alias is left to read. */
  private detailsRefusedOrOutcome(call: Extract<AwsCall<unknown>, { ok: false }>, cursor: Cursor): PageOutcome {
    if (call.failure.kind !== 'access-denied') return this.iamOutcome(call);
    const next: Cursor = { phase: 'aliases', marker: null, refused: [...cursor.refused, GET_ACCOUNT_AUTHORIZATION_DETAILS.action] };
    return new PageBuilder().page(next, PROVIDER);
  }

  private details(iam: IAMClient, filter: EntityType[], marker: string | null): Promise<AwsCall<GetAccountAuthorizationDetailsCommandOutput>> {
    return this.aws.call(`aws:iam:${this.account}`, (abortSignal) =>
      iam.send(new GetAccountAuthorizationDetailsCommand({ Filter: filter, MaxItems: AWS_PAGE_SIZE, Marker: marker ?? undefined }), { abortSignal }),
    );
  }

  /** Every group of the account, read once per step. */
  private async groupIndex(iam: IAMClient): Promise<AwsCall<GroupIndex>> {
    const key = `aws:${this.configuration.access_key_id}:groups:${this.account}`;
    const cached = this.context.session.get(key) as GroupIndex | undefined;
    if (cached) return { ok: true, value: cached };
    const groups = [];
    let marker: string | null = null;
    for (let page = 0; page < MAX_INDEX_PAGES; page += 1) {
      const answer = await this.details(iam, FILTER.groups, marker);
      if (!answer.ok) return answer;
      groups.push(...(answer.value.GroupDetailList ?? []));
      marker = answer.value.IsTruncated ? (answer.value.Marker ?? null) : null;
      if (!marker) break;
    }
    const index = groupIndexOf(groups);
    this.context.session.set(key, index);
    return { ok: true, value: index };
  }

  /** Role sessions are memoized per step; the keys are never put in a cursor. */
  private async assumed(roleArn: string): Promise<Access | PageOutcome> {
    const key = `aws:${this.configuration.access_key_id}:session:${roleArn}`;
    const cached = this.context.session.get(key) as AwsCredentials | undefined;
    if (cached && (cached.expiresAtMs ?? Infinity) - this.context.now() > SESSION_MARGIN_MS) return { credentials: cached, principalArn: roleArn };

    const sts = this.aws.sts(this.base);
    const assumed = await this.aws.call('aws:sts', (abortSignal) =>
      sts.send(
        new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: ROLE_SESSION_NAME, ExternalId: this.configuration.external_id, DurationSeconds: 900 }),
        { abortSignal },
      ),
    );
    if (!assumed.ok) {
      if (assumed.failure.kind === 'access-denied') {
        // Name the principal the trust policy must allow; best effort, the item stands without it.
        const caller = await this.callerArn();
        return refused([cannotAssumeRole(roleArn, caller.ok ? caller.value : undefined, this.configuration.external_id !== undefined)]);
      }
      return this.stsOutcome(assumed);
    }
    const issued = assumed.value.Credentials;
    if (!issued?.AccessKeyId || !issued.SecretAccessKey) return failed([unexpectedAnswer('AWS STS', 'AssumeRole answered no credentials')]);
    const credentials: AwsCredentials = {
      accessKeyId: issued.AccessKeyId,
      secretAccessKey: issued.SecretAccessKey,
      sessionToken: issued.SessionToken,
      expiresAtMs: issued.Expiration?.getTime(),
    };
    this.context.session.set(key, credentials);
    return { credentials, principalArn: roleArn };
  }

  private async callerArn(): Promise<AwsCall<string>> {
    const key = `aws:${this.configuration.access_key_id}:caller`;
    const cached = this.context.session.get(key);
    if (typeof cached === 'string') return { ok: true, value: cached };
    const sts = this.aws.sts(this.base);
    const identity = await this.aws.call('aws:sts', (abortSignal) => sts.send(new GetCallerIdentityCommand({}), { abortSignal }));
    if (!identity.ok) return identity;
    const arn = identity.value.Arn ?? '';
    this.context.session.set(key, arn);
    return { ok: true, value: arn };
  }

  private stsOutcome(call: Extract<AwsCall<unknown>, { ok: false }>): PageOutcome {
    const failure = call.failure;
    if (failure.kind === 'service' && failure.code === 'RegionDisabledException') return failed([stsRegionDisabled(this.configuration.region)]);
    // No policy can deny GetCallerIdentity to valid keys: a refusal there means the key is unusable.
    if (failure.kind === 'access-denied') return failed([awsFailureItem('AWS STS', { kind: 'rejected-credentials', code: failure.code }, this.elapsed())]);
    return this.outcome('AWS STS', call);
  }

  private iamOutcome(call: Extract<AwsCall<unknown>, { ok: false }>): PageOutcome {
    return this.outcome('AWS IAM', call);
  }

  private outcome(service: 'AWS STS' | 'AWS IAM', call: { failure: AwsFailure; retryAtMs: number }): PageOutcome {
    if (call.failure.kind === 'throttled') return { kind: 'throttled', retryAtMs: call.retryAtMs };
    return failed([awsFailureItem(service, call.failure, this.elapsed())]);
  }
}


/** The configured role in its own account; the role of the same path and name in any other. */
export function roleArnIn(roleArn: string, account: string): string {
  return roleArn.replace(/^(arn:[^:]+:iam::)\d{12}(:role\/.+)$/, `$1${account}$2`);
}
