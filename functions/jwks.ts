import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/jwks';

export const handler = endpoint(route, ({ deps }) => ok(deps.signingKeys.jwks, { 'cache-control': 'public, max-age=300' }));
