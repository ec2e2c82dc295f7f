/** The health check reads one (absent) item: proves the table answers, costs one read unit. */
import { ServiceUnavailableError } from '../errors';
import type { Deps } from '../deps';
import { keys } from './keys';

export async function checkStoreHealth(deps: Deps): Promise<void> {
  try {
    await deps.table.get(keys.healthProbe());
  } catch (error) {
    deps.observability.logger.error('table unreachable', { error });
    throw new ServiceUnavailableError('The table is unreachable');
  }
}
