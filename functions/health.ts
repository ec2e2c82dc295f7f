import { publicEndpoint } from '../shared/http/public-endpoint';
import { ok } from '../shared/http/responses';
import { checkStoreHealth } from '../shared/store/health';
import { route } from './routes/health';

export const handler = publicEndpoint(route, async ({ deps }) => {
  await checkStoreHealth(deps);
  return ok({ status: 'ok' });
});
