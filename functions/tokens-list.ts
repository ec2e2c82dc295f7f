import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { listPersonalAccessTokens } from '../shared/identity/personal-access-tokens';
import { route } from './routes/tokens-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listPersonalAccessTokens(deps, principal, input.query);
  return ok({ tokens: page.items, next_cursor: page.nextCursor });
});
