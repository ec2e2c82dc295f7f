/**
 * `GET /v1/connections/{id}/entities/{entity_id}` (API.md "Discovery runs and inventory") as the
 * console calls it, through the one client. Until the served OpenAPI document (and so the
 * generated schema) lists it, its shape is typed here from API.md; once it does, this file goes.
 */
import type { Client } from 'openapi-fetch';
import { api, type Schemas } from '../api/client';

type Neighbour = { kind: string; entity: Schemas['EntityRef'] };
export type EntityDetail = Schemas['Entity'] & { relationships: { out: Neighbour[]; in: Neighbour[]; out_total: number; in_total: number } };

interface EntityPaths {
  '/v1/connections/{id}/entities/{entity_id}': {
    get: { parameters: { path: { id: string; entity_id: string } }; responses: { 200: { content: { 'application/json': EntityDetail } }; 404: { content: { 'application/problem+json': unknown } } } };
  };
}

export const entityApi = api as unknown as Client<EntityPaths>;
