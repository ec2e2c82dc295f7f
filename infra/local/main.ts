/**
 * `npm start`: the whole service on this machine (infra/local/local-service.ts) and an optional
 * first tenant from TESSERA_BOOTSTRAP_*.
 */
import { loadConfig, type Config } from '../../shared/config';
import type { Deps } from '../../shared/deps';
import { ConflictError } from '../../shared/errors';
import { createTenant } from '../../shared/identity/tenants';
import { getTenantBySlug } from '../../shared/store/identity-items';
import { startLocalService } from './local-service';
import { runInForeground } from './process-lifecycle';

// No CloudWatch here, so EMF metrics would only flood the terminal; and Lambda runs Node 22,
// so the SDK's warning about this machine's Node 20 says nothing about the service.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

runInForeground(async (cleanups) => {
  const config = loadConfig(); // first, so that a bad variable fails before java starts
  await startLocalService(config, cleanups, { beforeListen: (deps) => bootstrap(deps, config) });
});

/** The first tenant, from TESSERA_BOOTSTRAP_*; a tenant that exists is left as it is. */
async function bootstrap(deps: Deps, config: Config): Promise<void> {
  const { tenant: slug, adminEmail, adminPassword } = config.bootstrap;
  if (!adminEmail || !adminPassword) {
    const half = adminEmail || adminPassword ? 'Bootstrap needs both TESSERA_BOOTSTRAP_ADMIN_EMAIL and TESSERA_BOOTSTRAP_ADMIN_PASSWORD. ' : '';
    // A restart of a data directory that has its tenant needs no advice on creating one.
    if (!half && (await getTenantBySlug(deps, slug))) return;
    console.log(`${half}To create a tenant: TESSERA_ADMIN_PASSWORD=... npm run tessera -- create-tenant --slug ${slug} --admin-email admin@example.com`);
    return;
  }
  try {
    const created = await createTenant(deps, {
      slug,
      name: slug,
      emailDomains: [adminEmail.slice(adminEmail.lastIndexOf('@') + 1)],
      adminEmail,
      adminPassword,
    });
    console.log(`Bootstrap: created tenant ${created.tenant.slug} (${created.tenant.id}), workspace ${created.workspace.id}, admin ${created.admin.email} (${created.admin.id})`);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    console.log(`Bootstrap skipped: ${error.message}`);
  }
}
