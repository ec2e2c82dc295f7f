import { exportContent } from '../shared/exports/export-content';
import { endpoint } from '../shared/http/endpoint';
import { route } from './routes/exports-content';

export const handler = endpoint(route, ({ input, principal, deps }) => exportContent(deps, principal, input.params.export_id));
