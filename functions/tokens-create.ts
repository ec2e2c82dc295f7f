import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createPersonalAccessToken } from '../shared/identity/personal-access-tokens';
import { route } from './routes/tokens-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  created(await createPersonalAccessToken(deps, principal, input.body, request.sourceIp)),
);
