/**
 * The one client of the API: openapi-fetch typed by the generated schema, so the console can
 * only call what the served OpenAPI document offers. Same origin (the console is served beside
 * `/v1`), so no CORS and no absolute URL. The access token is added from the session.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { session } from '../session/session';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

const bearer: Middleware = {
  onRequest({ request }) {
    const token = session.accessToken();
    if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: '/' });
api.use(bearer);
