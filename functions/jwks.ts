import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/jwks';

// Served from the published key set (public halves only): this function holds no secret.
export const handler = endpoint(route, async ({ deps }) => ok(await deps.verificationKeys.jwks(), { 'cache-control': `public, max-age=${deps.config.keyCacheSeconds}` }));
