/**
 * A local Microsoft Entra ID + Microsoft Graph + Azure Resource Manager on one loopback port
 * (point `endpoints.login`, `.graph` and `.arm` at it): the v2.0 token endpoint (client
 * credentials, AADSTS errors), Graph reads guarded by application permissions, and ARM role
 * assignment reads guarded by a Reader assignment per subscription. Tokens are opaque here and
 * bound to their audience, as real ones are. Tests change `state`.
 */
import { randomBytes } from 'node:crypto';
import { json, startLocalServer, type LocalReply, type LocalRequest } from './local-server';

export const azureApp = {
  tenantId: '3f2a9c1e-7b4d-4e8a-9c6b-1d2e3f4a5b6c',
  clientId: 'c0ffee00-1234-4abc-8def-0123456789ab',
  clientSecret: 'tessera~LocalClientSecret.ForTheFakeAzure_01',
};

export const azureSubscriptions = ['11111111-2222-4333-8444-555555555555', '66666666-7777-4888-9999-aaaaaaaaaaaa'];

/** Graph path → the least-privileged application permission it needs. */
const GRAPH_PERMISSION_OF: Record<string, string> = {
  '/v1.0/users': 'User.Read.All',
  '/v1.0/groups': 'GroupMember.Read.All',
  '/v1.0/servicePrincipals': 'Application.Read.All',
  '/v1.0/roleManagement/directory/roleAssignments': 'RoleManagement.Read.Directory',
};

type Surface = 'token' | 'graph' | 'arm';

export interface FakeAzureState {
  /** Application permissions granted (with admin consent) to the app. */
  graphPermissions: Set<string>;
  /** Subscriptions that exist in the tenant. */
  subscriptions: Set<string>;
  /** Subscriptions where the app's service principal holds Reader. */
  readerOn: Set<string>;
  throttle?: Surface;
  hang?: Surface;
}

export interface FakeAzureCall {
  surface: Surface;
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form fields of a token request. */
  form?: URLSearchParams;
  authorization?: string;
}

export interface FakeAzure {
  url: string;
  state: FakeAzureState;
  calls: FakeAzureCall[];
  close(): Promise<void>;
}

const GRAPH_AUDIENCE = 'https://graph.microsoft.com/.default';
const ARM_AUDIENCE = 'https://management.azure.com/.default';

export async function startFakeAzure(initial: Partial<FakeAzureState> = {}): Promise<FakeAzure> {
  const state: FakeAzureState = {
    graphPermissions: new Set(Object.values(GRAPH_PERMISSION_OF)),
    subscriptions: new Set(azureSubscriptions),
    readerOn: new Set(azureSubscriptions),
    ...initial,
  };
  const tokens = new Map<string, string>(); // access token → audience
  const calls: FakeAzureCall[] = [];

  const handle = (request: LocalRequest): LocalReply | 'hang' => {
    const path = request.url.pathname;
    const surface: Surface = path.endsWith('/oauth2/v2.0/token') ? 'token' : path.startsWith('/v1.0/') ? 'graph' : 'arm';
    const form = surface === 'token' ? new URLSearchParams(request.body) : undefined;
    calls.push({ surface, method: request.method, path, query: request.url.searchParams, form, authorization: request.headers.authorization });

    if (state.hang === surface) return 'hang';
    if (state.throttle === surface) return json(429, { error: { code: 'TooManyRequests', message: 'Too many requests' } }, { 'retry-after': '7' });
    if (surface === 'token') return token(path, form ?? new URLSearchParams());
    const audience = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (surface === 'graph') return graph(path, audience);
    return arm(path, request.url.searchParams, audience);
  };

  function token(path: string, form: URLSearchParams): LocalReply {
    const tenant = path.split('/')[1];
    if (tenant !== azureApp.tenantId) {
      return json(400, { error: 'invalid_request', error_description: `AADSTS90002: Tenant '${tenant}' not found.` });
    }
    if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003' });
    if (form.get('client_id') !== azureApp.clientId) {
      return json(400, { error: 'unauthorized_client', error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found in the directory.` });
    }
    if (form.get('client_secret') !== azureApp.clientSecret) {
      return json(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    }
    const scope = form.get('scope') ?? '';
    if (scope !== GRAPH_AUDIENCE && scope !== ARM_AUDIENCE) return json(400, { error: 'invalid_scope', error_description: 'AADSTS1002012' });
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, scope);
    return json(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: accessToken });
  }

  function graph(path: string, audience: string | undefined): LocalReply {
    if (audience !== GRAPH_AUDIENCE) return json(401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token validation failure.' } });
    const permission = GRAPH_PERMISSION_OF[path];
    if (!permission) return json(404, { error: { code: 'Request_ResourceNotFound', message: 'Resource not found.' } });
    if (!state.graphPermissions.has(permission)) {
      return json(403, { error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges to complete the operation.' } });
    }
    return json(200, { '@odata.context': `https://graph.microsoft.com${path}`, value: [{ id: randomBytes(8).toString('hex') }] });
  }

  function arm(path: string, query: URLSearchParams, audience: string | undefined): LocalReply {
    const match = /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Authorization\/roleAssignments$/.exec(path);
    if (!match) return json(404, { error: { code: 'InvalidResourceType', message: 'The resource type could not be found.' } });
    if (!query.get('api-version')) return json(400, { error: { code: 'MissingApiVersionParameter', message: "The api-version query parameter (?api-version=) is required for all requests." } });
    if (audience !== ARM_AUDIENCE) return json(401, { error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' } });
    const subscription = match[1] ?? '';
    if (!state.subscriptions.has(subscription)) {
      return json(404, { error: { code: 'SubscriptionNotFound', message: `The subscription '${subscription}' could not be found.` } });
    }
    if (!state.readerOn.has(subscription)) {
      return json(403, {
        error: {
          code: 'AuthorizationFailed',
          message: `The client '${azureApp.clientId}' does not have authorization to perform action 'Microsoft.Authorization/roleAssignments/read' over scope '/subscriptions/${subscription}'.`,
        },
      });
    }
    return json(200, { value: [] });
  }

  const server = await startLocalServer(handle);
  return { url: server.url, state, calls, close: () => server.close() };
}
