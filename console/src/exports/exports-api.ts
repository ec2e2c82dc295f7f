/**
 * The exports endpoints (API.md "Exports") as the console calls them, through the one client.
 * Until the served OpenAPI document (and so the generated schema) lists them, their shape is
 * typed here from API.md; once it does, this file goes and the calls use `api` directly.
 */
import type { Client } from 'openapi-fetch';
import { api } from '../api/client';

export interface ExportRequest {
  source: 'entities' | 'relationships' | 'people' | 'access' | 'access_changes' | 'audit_events';
  connection_id?: string;
  person_id?: string;
  since?: string;
  until?: string;
  format: 'csv' | 'ndjson';
}

interface ExportStatus {
  export_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  rows: number;
  created_at: string;
}

type Problem = { content: { 'application/problem+json': unknown } };

interface ExportPaths {
  '/v1/exports': {
    post: { parameters: object; requestBody: { content: { 'application/json': ExportRequest } }; responses: { 202: { content: { 'application/json': ExportStatus } }; 400: Problem } };
  };
  '/v1/exports/{export_id}': {
    get: { parameters: { path: { export_id: string } }; responses: { 200: { content: { 'application/json': ExportStatus } }; 404: Problem } };
  };
  '/v1/exports/{export_id}/content': {
    get: { parameters: { path: { export_id: string } }; responses: { 200: { content: { 'text/csv': string } }; 404: Problem } };
  };
}

// The same client (base URL, bearer middleware), typed with the exports' paths from API.md.
export const exportsApi = api as unknown as Client<ExportPaths>;
