import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { regenerateBackupCodes } from '../shared/identity/backup-codes';
import { routes } from './routes';

export const handler = endpoint(routes.mfaBackupCodesRegen, async ({ principal, deps, request }) => ok(await regenerateBackupCodes(deps, principal, request.sourceIp)));
