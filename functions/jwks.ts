import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { routes } from './routes';

export const handler = endpoint(routes.jwks, ({ deps }) => ok(deps.signingKeys.jwks, { 'cache-control': 'public, max-age=300' }));
