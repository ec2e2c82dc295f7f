import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createPersonalAccessToken } from '../shared/identity/personal-access-tokens';
import { routes } from './routes';

export const handler = endpoint(routes.tokensCreate, async ({ input, principal, deps, request }) =>
  created(await createPersonalAccessToken(deps, principal, input.body, request.sourceIp)),
);
