import * as z from 'zod/mini';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/health', handler: 'health', auth: 'public', tag: 'service',
  summary: 'Liveness and table reachability',
  responses: { 200: { description: 'Healthy', schema: z.object({ status: z.literal('ok') }) }, 503: problem('The table is unreachable') },
});
