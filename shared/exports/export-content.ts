/** `GET /v1/exports/{id}/content`: the creator's succeeded export, as the stage serves files (export-files.ts). */
import type { Deps } from '../deps';
import { ConflictError } from '../errors';
import type { Principal } from '../identity/principal';
import { redirect, type EndpointResult } from '../http/responses';
import { contentDisposition, exportFiles } from './export-files';
import { exportFileMeta, getOwnExport } from './export-records';

export async function exportContent(deps: Deps, principal: Principal, exportId: string): Promise<EndpointResult> {
  const record = await getOwnExport(deps, principal, exportId);
  if (record.status !== 'succeeded' || !record.object_key) throw new ConflictError(`The export is ${record.status}${record.status === 'failed' ? '' : '; poll it until it has succeeded'}`);
  const meta = exportFileMeta(record);
  const answer = await deps.part(exportFiles).answer(record.object_key, meta);
  if (answer.kind === 'redirect') return redirect(answer.url);
  return { statusCode: 200, text: answer.body, contentType: meta.contentType, headers: { 'content-disposition': contentDisposition(meta.filename) } };
}
