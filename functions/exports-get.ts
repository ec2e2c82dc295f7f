import { getOwnExport, toExportView } from '../shared/exports/export-records';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/exports-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => ok(toExportView(await getOwnExport(deps, principal, input.params.export_id))));
