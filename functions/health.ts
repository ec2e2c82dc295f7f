import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { checkStoreHealth } from '../shared/store/health';
import { routes } from './routes';

export const handler = endpoint(routes.health, async ({ deps }) => {
  await checkStoreHealth(deps);
  return ok({ status: 'ok' });
});
