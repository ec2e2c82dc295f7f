import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { rotatePersonalAccessToken } from '../shared/identity/personal-access-tokens';
import { route } from './routes/tokens-rotate';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  created(await rotatePersonalAccessToken(deps, principal, input.params.id, request.sourceIp)),
);
