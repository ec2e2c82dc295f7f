import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { regenerateBackupCodes } from '../shared/identity/backup-codes';
import { route } from './routes/mfa-backup-codes-regen';

export const handler = endpoint(route, async ({ principal, deps, request }) => ok(await regenerateBackupCodes(deps, principal, request.sourceIp)));
