import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { checkStoreHealth } from '../shared/store/health';
import { route } from './routes/health';

export const handler = endpoint(route, async ({ deps }) => {
  await checkStoreHealth(deps);
  return ok({ status: 'ok' });
});
