/**
 * Every function of the stack, by handler name (`functions/<handler>.ts`): one per handler of
 * the route table, the `$default` route's, and the jobs. What goes over every function (the
 * tests of grants and deploys, the bench) reads this list.
 */
import { jobList } from './jobs';
import { DEFAULT_ROUTE_HANDLER, routeList } from './routes';

/** The functions behind the HTTP API: the route table's handlers and the `$default` route's. */
export const apiHandlers: readonly string[] = [...new Set([...routeList.map((r) => r.handler), DEFAULT_ROUTE_HANDLER])].sort();

export const functionHandlers: readonly string[] = [...apiHandlers, ...jobList.map((j) => j.handler)].sort();
