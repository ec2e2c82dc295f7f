/**
 * Export jobs: asking for one (`POST /v1/exports`), reading its status and its file. An export
 * belongs to the user who asked for it: every read is keyed by the caller's tenant and
 * workspace (from the credential) and answers 404 unless the caller is its creator, so another
 * user of the same workspace learns nothing, not even that it exists. The permission its
 * source needs (`connections:read`, or `audit:read` for audit events) is checked when it is
 * asked for and again whenever it is read, so a token without it cannot fetch the file.
 *
 * Asking for one is export-requests.ts; the job runs on the run queue (export-job.ts); the
 * record and its file expire together,
 * `EXPORT_RETENTION_SECONDS` after the request (the bucket's lifecycle in AWS, a check on read
 * here, the table's TTL for the record).
 */
import type { Deps } from '../deps';
import { ForbiddenError, NotFoundError } from '../errors';
import type { Permission } from '../identity/permissions';
import type { Principal } from '../identity/principal';
import { keys } from '../store/keys';
import type { ExportFileCheckpoint, ExportFileMeta } from './export-files';
import { formatMedia } from './export-formats';
import type { ExportFormat, ExportSource, ExportStatus } from './export-schemas';
import type { SourcePosition } from './export-sources';

/** How long an export and its file are kept: a day (the bucket's lifecycle rule is the same). */
export const EXPORT_RETENTION_SECONDS = 24 * 60 * 60;

export interface ExportFilters {
  connection_id?: string;
  person_id?: string;
  entity_id?: string;
  since?: string;
  until?: string;
}

/** The names of what the filters point at, read when the export was asked for (answers by name). */
export interface ExportFilterNames {
  connection_name?: string;
  person_display_name?: string;
  entity_display_name?: string;
}

export interface ExportRecord {
  export_id: string;
  tenant_id: string;
  workspace_id: string;
  created_by: string;
  source: ExportSource;
  format: ExportFormat;
  filters: ExportFilters;
  /** Absent on exports asked for before names were kept. */
  filter_names?: ExportFilterNames;
  status: ExportStatus;
  rows: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string;
  error: string | null;
  /** Where the file is, relative to the stage's export store (export-files.ts). */
  object_key: string | null;
  /** The export's jobs begun (export-job.ts); absent before the first. */
  slices?: number;
  /** Epoch milliseconds until which the job `slices` may write the file; 0 once it has ended and queued the next. */
  lease_until?: number;
  /** The last durable point: what the file holds, where the source goes on, the rows so far. */
  checkpoint?: ExportCheckpoint | null;
}

export interface ExportCheckpoint {
  /** Absent: the file holds the header alone, the source is read from its start. */
  position?: SourcePosition;
  rows: number;
  file: ExportFileCheckpoint;
}

export interface ExportView {
  export_id: string;
  source: ExportSource;
  format: ExportFormat;
  filters: ExportFilters & ExportFilterNames;
  status: ExportStatus;
  rows: number;
  created_at: string;
  finished_at: string | null;
  expires_at: string;
  error: string | null;
}

export const toExportView = (r: ExportRecord): ExportView => ({
  export_id: r.export_id,
  source: r.source,
  format: r.format,
  filters: { ...r.filters, ...r.filter_names },
  status: r.status,
  rows: r.rows,
  created_at: r.created_at,
  finished_at: r.finished_at,
  expires_at: r.expires_at,
  error: r.error,
});

/** The permission reading a source needs: what its list routes need. */
export const permissionOfSource = (source: ExportSource): Permission => (source === 'audit_events' ? 'audit:read' : 'connections:read');

export function assertMayRead(principal: Pick<Principal, 'permissions'>, source: ExportSource): void {
  const needed = permissionOfSource(source);
  if (!principal.permissions.includes(needed)) throw new ForbiddenError(`Exporting ${source} needs the permission ${needed}`);
}

/** The caller's own export, still kept; anything else is 404. */
export async function getOwnExport(deps: Deps, principal: Pick<Principal, 'tenantId' | 'workspaceId' | 'userId' | 'permissions'>, exportId: string): Promise<ExportRecord> {
  const record = await deps.table.get<ExportRecord>(keys.export(principal.tenantId, principal.workspaceId, exportId));
  if (!record || record.created_by !== principal.userId || record.expires_at <= deps.clock.now().toISOString()) throw new NotFoundError('export');
  assertMayRead(principal, record.source);
  return record;
}

export const exportObjectKey = (record: Pick<ExportRecord, 'tenant_id' | 'workspace_id' | 'export_id' | 'format'>) =>
  `${record.tenant_id}/${record.workspace_id}/${record.export_id}.${formatMedia[record.format].extension}`;

/** The file's media type and the name a browser saves it under. */
export function exportFileMeta(record: Pick<ExportRecord, 'source' | 'export_id' | 'format'>): ExportFileMeta {
  const media = formatMedia[record.format];
  return { contentType: media.contentType, filename: `tessera-${record.source.replaceAll('_', '-')}-${record.export_id}.${media.extension}` };
}
