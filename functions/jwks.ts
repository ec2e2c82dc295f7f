import { publicEndpoint } from '../shared/http/public-endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/jwks';

// Served from the published key set (public halves only): this function holds no secret.
export const handler = publicEndpoint(route, async ({ deps }) => ok(await deps.verificationKeys.jwks(), { 'cache-control': `public, max-age=${deps.config.keyCacheSeconds}` }));
