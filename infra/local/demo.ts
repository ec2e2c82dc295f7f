/**
 * `npm run demo`: `npm start` with local stand-ins for everything outside (an Okta org, an AWS
 * organization, an Entra tenant with Azure RBAC, an OpenID Provider; demo/demo-estate.ts). The
 * first start makes tenant `demo` with admin `admin@demo.test`, one connection per integration
 * (tested and run through the API), and the demo IdP as the tenant's single sign-on; every
 * start prints how to sign in. Ctrl-C stops everything it started.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { loadConfig } from '../../shared/config';
import type { Deps } from '../../shared/deps';
import { createTenant } from '../../shared/identity/tenants';
import { getTenantBySlug } from '../../shared/store/identity-items';
import { SSO_CALLBACK_PATH } from '../../shared/console-paths';
import { DemoApi } from './demo/demo-api';
import { DEMO_PEOPLE_DOMAIN, demoIdpAccounts, startDemoEstate } from './demo/demo-estate';
import { newIdpClientSecret, setUpDemo } from './demo/demo-setup';
import { readDemoState, writeDemoState, type DemoState } from './demo/demo-state';
import { startLocalService } from './local-service';
import { runInForeground } from './process-lifecycle';

process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The demo's terminal is for its own lines (what it set up, how to sign in); a line per request
// would bury them. POWERTOOLS_LOG_LEVEL=INFO npm run demo shows every request, as npm start does.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const DEFAULT_ADMIN_EMAIL = 'admin@demo.test';

runInForeground(async (cleanups) => {
  const given = loadConfig(); // first, so that a bad variable fails before anything starts
  if (given.port === 0) throw new Error('npm run demo needs a fixed PORT: its stand-ins listen on PORT + 1 … PORT + 4');
  await mkdir(given.dataDir, { recursive: true });
  let state = await readDemoState(given.dataDir);
  const slug = given.bootstrap.tenant;
  const idpClientSecret = state?.idp_client_secret ?? newIdpClientSecret();
  const estate = await startDemoEstate({ basePort: given.port, redirectUri: `${given.publicUrl}/v1/auth/sso/${slug}/callback`, clientSecret: idpClientSecret });
  cleanups.push(() => estate.close());
  console.log(`Stand-ins: Okta ${estate.okta.url}, AWS (STS, IAM) ${estate.aws.url}, Entra and Azure ${estate.azure.url}, OpenID Provider ${estate.idp.issuer}`);

  const config = loadConfig({ ...process.env, TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify(estate.endpoints) });
  const adminEmail = state?.admin_email ?? config.bootstrap.adminEmail ?? DEFAULT_ADMIN_EMAIL;
  const givenPassword = config.bootstrap.adminPassword;
  const adminPassword = givenPassword ?? state?.generated_admin_password ?? randomBytes(12).toString('base64url');
  let tenantId = state?.tenant_id;
  const service = await startLocalService(config, cleanups, {
    beforeListen: async (deps: Deps) => {
      if (state) return;
      tenantId = await createDemoTenant(deps, slug, adminEmail, adminPassword);
    },
  });

  const ssoReturnUrl = `${config.publicUrl}${SSO_CALLBACK_PATH}`;
  if (!state) {
    state = await setUpDemo({
      url: service.url,
      tenant: { id: tenantId!, slug },
      admin: { email: adminEmail, password: adminPassword, generatedPassword: givenPassword === undefined },
      connections: estate.connections,
      idp: { issuer: estate.idp.issuer, clientSecret: idpClientSecret },
      ssoReturnUrl,
      log: (line) => console.log(line),
    });
    await writeDemoState(config.dataDir, state);
  } else if (state.idp_issuer !== estate.idp.issuer) {
    // PORT changed since the first start: the IdP now answers elsewhere.
    const api = new DemoApi(service.url);
    await api.signIn(slug, state.admin_email, adminPassword, state.totp_secret);
    await api.call('PATCH', `/v1/tenants/${state.tenant_id}/idp`, { issuer: estate.idp.issuer, allowed_redirect_uris: [ssoReturnUrl] });
    state = { ...state, idp_issuer: estate.idp.issuer };
    await writeDemoState(config.dataDir, state);
  }
  printHowToSignIn(service.url, slug, state, givenPassword === undefined ? adminPassword : undefined);
});

/** The first start's tenant; one made by `npm start` in the same data directory is not the demo's. */
async function createDemoTenant(deps: Deps, slug: string, adminEmail: string, adminPassword: string): Promise<string> {
  if (await getTenantBySlug(deps, slug)) {
    throw new Error(`Tenant ${slug} exists in this data directory but the demo did not make it; give the demo its own: TESSERA_DATA_DIR=.data-demo npm run demo`);
  }
  const adminDomain = adminEmail.slice(adminEmail.lastIndexOf('@') + 1);
  const created = await createTenant(deps, { slug, name: 'Demo', emailDomains: [adminDomain, DEMO_PEOPLE_DOMAIN], adminEmail, adminPassword });
  console.log(`Demo: created tenant ${created.tenant.slug} with admin ${created.admin.email}`);
  return created.tenant.id;
}

function printHowToSignIn(url: string, slug: string, state: DemoState, password: string | undefined): void {
  const shownPassword = password ?? '(the TESSERA_BOOTSTRAP_ADMIN_PASSWORD you gave)';
  const [first, ...others] = Object.entries(demoIdpAccounts);
  console.log(`
Tessera demo is ready: ${url}/

Sign in with a password
  tenant ${slug}, email ${state.admin_email}, password ${shownPassword}
  The authenticator code it asks for:  npm run tessera -- totp --secret ${state.totp_secret}
  (a code works once: after a refusal, add --next to wait for the next one)

Sign in by single sign-on (the demo IdP)
  In the console, sign in as ${first![1].email} (or ${others.map(([, a]) => a.email).join(', ')}): the email's domain sends you to the
  demo IdP, where the username is ${first![0]} (the part before the @).

With curl
  curl -s ${url}/v1/auth/login -H 'content-type: application/json' \\
    -d '{"tenant":"${slug}","email":"${state.admin_email}","password":"<password>"}'
  curl -s ${url}/v1/mfa/challenge -H 'content-type: application/json' \\
    -d '{"mfa_token":"<mfa_token>","code":"<code from npm run tessera -- totp>"}'
  curl -si '${url}/v1/auth/sso/${slug}/start?redirect_uri=${encodeURIComponent(`${url}${SSO_CALLBACK_PATH}`)}'   # 302 to the demo IdP

Ctrl-C stops Tessera and its stand-ins.`);
}
