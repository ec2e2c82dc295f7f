/**
 * Child process of the discovery bench: serves the generated Okta org on loopback, with Okta's
 * management rate limits (Enterprise tier, per minute: /api/v1/users 600, /api/v1/groups* 600,
 * /api/v1/apps* 100), so its memory and CPU are not counted in the runner's. Prints one JSON
 * line `{url, requests}` when ready; stops when its parent closes stdin.
 */
import { startFakeOkta } from '../infra/local/stand-ins/okta';
import { generateOrg, requestsNeeded, type OrgShape } from './okta-org';

const shape = JSON.parse(process.argv[2] ?? '{}') as OrgShape;
const limits = JSON.parse(process.argv[3] ?? '{}') as { windowMs: number; perBucket: Record<string, number> };
const org = generateOrg(shape);
const okta = await startFakeOkta({ org, rateLimits: limits });
process.stdout.write(`${JSON.stringify({ url: okta.url, requests: requestsNeeded(org) })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void okta.close().then(() => process.exit(0));
});
