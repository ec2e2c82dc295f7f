import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { rotatePersonalAccessToken } from '../shared/identity/personal-access-tokens';
import { routes } from './routes';

export const handler = endpoint(routes.tokensRotate, async ({ input, principal, deps, request }) =>
  created(await rotatePersonalAccessToken(deps, principal, input.params.id, request.sourceIp)),
);
