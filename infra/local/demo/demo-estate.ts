/**
 * What `npm run demo` stands in for: an Okta org, an AWS organization (STS and IAM, two
 * accounts) and an Entra tenant with Azure RBAC, each the local server the tests use (they
 * answer as the providers' published APIs do: paging, throttling, refusals), plus an OpenID
 * Provider (panva's `oidc-provider`) as the demo tenant's IdP.
 *
 * The three estates share their people: the samples' mail domains all become `example.com`,
 * so alice's Okta user, her two AWS users (email tags) and her Entra accounts are one person of
 * the access graph. Ports are fixed from the API's port (PORT + 1 … + 4): the IdP's issuer is
 * saved in the tenant's IdP configuration, and it must answer there again after a restart.
 */
import { startOidcProvider, type LocalOidcProvider } from '../stand-ins/openid-provider';
import { AWS_ACCOUNT, AWS_SECOND_ACCOUNT, awsRole, awsUser, sampleAccounts, startFakeAws, type FakeAws } from '../stand-ins/aws';
import { azureApp, azureSubscriptions, sampleAzureTenant, startFakeAzure, type FakeAzure } from '../stand-ins/azure';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../stand-ins/okta';

/** The people of the demo IdP: account id → email (just-in-time users of the tenant). */
export const demoIdpAccounts = {
  alice: { email: 'alice@example.com' },
  bob: { email: 'bob@example.com' },
} as const;

/** The demo tenant's verified domains: its admin's, and the one its people (and IdP users) share. */
export const DEMO_PEOPLE_DOMAIN = 'example.com';
export const DEMO_IDP_CLIENT_ID = 'tessera-demo';

export interface DemoConnectionInput {
  integration_id: string;
  name: string;
  scope: Record<string, unknown>;
  configuration: Record<string, unknown>;
}

export interface DemoEstate {
  okta: FakeOkta;
  aws: FakeAws;
  azure: FakeAzure;
  idp: LocalOidcProvider;
  /** TESSERA_CONNECTOR_ENDPOINTS for the service. */
  endpoints: Record<string, string>;
  connections: DemoConnectionInput[];
  close(): Promise<void>;
}

const toPeopleDomain = (email: string) => email.replace(/@(contoso\.example|acme\.example)$/i, `@${DEMO_PEOPLE_DOMAIN}`);

function demoOktaOrg() {
  const alice = oktaUser(1, { login: 'alice@example.com', firstName: 'Alice', lastName: 'Martin' });
  const bob = oktaUser(2, { login: 'bob@example.com', firstName: 'Bob', lastName: 'Stone' });
  const carol = oktaUser(3, { login: 'carol@example.com', firstName: 'Carol', lastName: 'Diaz' });
  const dave = oktaUser(4, { login: 'dave@example.com', firstName: 'Dave', lastName: 'Old', status: 'DEPROVISIONED' });
  const [admins, engineering, finance] = [oktaGroup(1, 'Okta Admins'), oktaGroup(2, 'Engineering'), oktaGroup(3, 'Finance')];
  const [payroll, jira, aws] = [oktaApp(1, 'Payroll'), oktaApp(2, 'Jira'), oktaApp(3, 'AWS Console')];
  return buildOrg({
    users: [alice, bob, carol, dave],
    groups: [admins, engineering, finance],
    members: { [admins.id]: [alice.id], [engineering.id]: [alice.id, bob.id], [finance.id]: [carol.id] },
    apps: [payroll, jira, aws],
    appGroups: { [payroll.id]: [finance.id, admins.id], [jira.id]: [engineering.id], [aws.id]: [engineering.id, admins.id] },
  });
}

function demoAzureTenant() {
  const tenant = sampleAzureTenant();
  tenant.users = tenant.users.map((user) => ({ ...user, mail: user.mail === null ? null : toPeopleDomain(user.mail) }));
  return tenant;
}

/** Starts the stand-ins on `basePort + 1 … + 4`; the IdP trusts `redirectUri` for `clientSecret`. */
export async function startDemoEstate(input: { basePort: number; redirectUri: string; clientSecret: string }): Promise<DemoEstate> {
  const started: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    for (const part of started.reverse()) await part.close().catch(() => undefined);
  };
  try {
    const okta = await startFakeOkta({ org: demoOktaOrg() }, input.basePort + 1);
    started.push(okta);
    const aws = await startFakeAws({ accounts: sampleAccounts() }, input.basePort + 2);
    started.push(aws);
    const azure = await startFakeAzure({ tenant: demoAzureTenant() }, input.basePort + 3);
    started.push(azure);
    const idp = await startOidcProvider({
      port: input.basePort + 4,
      clients: [{ client_id: DEMO_IDP_CLIENT_ID, client_secret: input.clientSecret, redirect_uris: [input.redirectUri] }],
      accounts: demoIdpAccounts,
    });
    started.push(idp);
    return {
      okta, aws, azure, idp,
      endpoints: { okta: okta.url, sts: aws.url, iam: aws.url, login: azure.url, graph: azure.url, arm: azure.url },
      connections: [
        { integration_id: 'int_okta_discovery', name: 'Okta (demo org)', scope: {}, configuration: { org_url: 'https://demo.okta.com', api_token: oktaToken } },
        {
          integration_id: 'int_aws_iam_discovery', name: 'AWS (demo organization)', scope: { account_ids: [AWS_ACCOUNT, AWS_SECOND_ACCOUNT] },
          configuration: { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1', role_arn: awsRole.arn, external_id: awsRole.externalId! },
        },
        {
          integration_id: 'int_azure_entra_discovery', name: 'Entra ID and Azure (demo tenant)', scope: { subscription_ids: azureSubscriptions },
          configuration: { tenant_id: azureApp.tenantId, client_id: azureApp.clientId, client_secret: azureApp.clientSecret },
        },
      ],
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new Error(`A demo stand-in's port (${input.basePort + 1}–${input.basePort + 4}) is in use; set PORT to another one`) : error;
  }
}
