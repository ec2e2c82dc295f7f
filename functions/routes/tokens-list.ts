import { PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute } from '../../shared/http/route';
import { TokenListSchema } from '../../shared/identity/personal-access-token-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/tokens', handler: 'tokens-list', auth: 'bearer', permission: 'tokens:manage', tag: 'tokens',
  summary: 'List your personal access tokens',
  request: { query: PageQuerySchema },
  responses: { 200: { description: 'Tokens', schema: TokenListSchema } },
});
