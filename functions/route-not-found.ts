import { defaultRouteEndpoint } from '../shared/http/default-route-endpoint';
import { routeList } from './routes';

export const handler = defaultRouteEndpoint(routeList);
