import { actorOf } from '../shared/connections/connection-records';
import { toExportView } from '../shared/exports/export-records';
import { requestExport } from '../shared/exports/export-requests';
import { endpoint } from '../shared/http/endpoint';
import { accepted } from '../shared/http/responses';
import { route } from './routes/exports-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  const { record, location } = await requestExport(deps, actorOf(principal, request.sourceIp), principal, input.body);
  const view = toExportView(record);
  return accepted({ export_id: view.export_id, status: view.status }, { location });
});
