/**
 * The demo's first start, through the public API: the admin enrolls TOTP (the secret is kept
 * for `npm run tessera -- totp`), creates one connection per integration against the
 * stand-ins, tests each and runs each to its end, and configures the demo IdP for the tenant.
 */
import { randomBytes } from 'node:crypto';
import { totpCode } from '../../../shared/crypto/totp';
import { DemoApi } from './demo-api';
import { DEMO_IDP_CLIENT_ID, DEMO_PEOPLE_DOMAIN, type DemoConnectionInput } from './demo-estate';
import type { DemoState } from './demo-state';

export interface DemoSetupInput {
  url: string;
  tenant: { id: string; slug: string };
  admin: { email: string; password: string; generatedPassword: boolean };
  connections: DemoConnectionInput[];
  idp: { issuer: string; clientSecret: string };
  /** Where the console takes the SSO answer (on the IdP configuration's redirect list). */
  ssoReturnUrl: string;
  log: (line: string) => void;
}

export const newIdpClientSecret = () => randomBytes(24).toString('base64url');

export async function setUpDemo(input: DemoSetupInput): Promise<DemoState> {
  const api = new DemoApi(input.url);
  const login = await api.call('POST', '/v1/auth/login', { tenant: input.tenant.slug, email: input.admin.email, password: input.admin.password });
  const mfaToken = String(login.body.mfa_token);
  const enrollment = new DemoApi(input.url, mfaToken);
  const secret = String((await enrollment.call('POST', '/v1/mfa/enroll/start')).body.secret);
  const confirmed = await api.call('POST', '/v1/mfa/enroll/confirm', { mfa_token: mfaToken, code: await totpCode(secret, Date.now() / 1000) });
  api.authorize(String(confirmed.body.access_token));
  input.log(`Demo: ${input.admin.email} enrolled an authenticator`);

  const connectionIds: { id: string; name: string }[] = [];
  for (const connection of input.connections) {
    const created = await api.call('POST', '/v1/connections', { ...connection, schedule: { type: 'daily', hour: 2, minute: 30, timezone: 'UTC' } });
    const id = String(created.body.connection_id);
    connectionIds.push({ id, name: connection.name });
    const test = await api.call('POST', `/v1/connections/${id}/test`);
    input.log(`Demo: connection "${connection.name}" created; its test: ${String(test.body.status)}`);
  }
  for (const { id, name } of connectionIds) {
    const run = await api.call('POST', `/v1/connections/${id}/runs`);
    const status = await waitForRun(api, id, String(run.body.run_id));
    input.log(`Demo: run of "${name}": ${status}`);
  }

  await api.call('POST', `/v1/tenants/${input.tenant.id}/idp`, {
    provider_type: 'oidc',
    issuer: input.idp.issuer,
    client_id: DEMO_IDP_CLIENT_ID,
    client_secret: input.idp.clientSecret,
    email_domains: [DEMO_PEOPLE_DOMAIN],
    allowed_redirect_uris: [input.ssoReturnUrl],
    default_role: 'connector_builder',
    active: true,
  });
  input.log(`Demo: the demo IdP (${input.idp.issuer}) signs in the tenant's @${DEMO_PEOPLE_DOMAIN} people`);

  return {
    tenant_id: input.tenant.id,
    admin_email: input.admin.email,
    ...(input.admin.generatedPassword ? { generated_admin_password: input.admin.password } : {}),
    totp_secret: secret,
    idp_client_secret: input.idp.clientSecret,
    idp_issuer: input.idp.issuer,
  };
}

async function waitForRun(api: DemoApi, connectionId: string, runId: string): Promise<string> {
  for (;;) {
    const run = await api.call('GET', `/v1/connections/${connectionId}/runs/${runId}`);
    const status = String(run.body.status);
    if (status !== 'queued' && status !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
