/**
 * An export job, as the run queue's worker runs it (shared/runs/run-worker.ts): it reads its
 * source page by page with the creator's workspace scope, encodes each page and hands it to the
 * file writer, then records the row count and the file's key. The scope comes from the stored
 * record (written from the creator's credential), never from the message alone: a message that
 * names no export of that workspace does nothing.
 *
 * Delivery is at least once: a job that finds its export finished does nothing; one that finds
 * it running (a crashed or timed-out delivery) writes the file again from the start. A job that
 * would outlive its invocation stops at a page boundary and fails the export, naming the limit,
 * rather than leave a half-written file behind; any other failure fails the export too (and is
 * logged), so no export stays `running` for a client to poll forever.
 */
import type { Deps } from '../deps';
import { TesseraError } from '../errors';
import type { RunMessage } from '../runs/run-queue';
import { keys } from '../store/keys';
import { isConditionFailure } from '../store/client';
import { exportFiles } from './export-files';
import { rowEncoder } from './export-formats';
import { exportFileMeta, exportObjectKey, type ExportRecord } from './export-records';
import { sourceReader } from './export-sources';

export type ExportMessage = Extract<RunMessage, { type: 'export' }>;

class ExportOutOfTimeError extends Error {}

export async function runExport(deps: Deps, message: ExportMessage, options: { deadlineMs: number }): Promise<void> {
  const key = keys.export(message.tenant_id, message.workspace_id, message.export_id);
  const record = await deps.table.get<ExportRecord>(key);
  if (!record || record.status === 'succeeded' || record.status === 'failed') return;
  const started = deps.clock.now().toISOString();
  try {
    await deps.table.update({
      Key: key,
      UpdateExpression: 'SET #status = :running, started_at = :now, #rows = :zero',
      ConditionExpression: '#status IN (:queued, :running)',
      ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows' },
      ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':now': started, ':zero': 0 },
    });
  } catch (error) {
    if (isConditionFailure(error)) return;
    throw error;
  }

  const scope = { tenantId: record.tenant_id, workspaceId: record.workspace_id };
  const reader = sourceReader(deps, scope, record.source, record.filters);
  const encoder = rowEncoder(record.format, reader.rowSchema);
  const objectKey = exportObjectKey(record);
  const writer = await deps.part(exportFiles).create(objectKey, exportFileMeta(record));
  let rows = 0;
  try {
    const header = encoder.header();
    if (header) await writer.write(header);
    for await (const page of reader.pages()) {
      await writer.write(page.map((item) => encoder.row(item)).join(''));
      rows += page.length;
      if (Date.now() > options.deadlineMs) throw new ExportOutOfTimeError();
    }
    await writer.finish();
  } catch (error) {
    await writer.abort();
    // A client's mistake the job found (the entity went, the person left): the export failed, say why.
    let why: string;
    if (error instanceof ExportOutOfTimeError) why = `The export did not finish within one job (${rows} rows written); narrow it with connection_id, person_id or since/until`;
    else if (error instanceof TesseraError && error.status < 500) why = error.message;
    else {
      // Said to the client without what went wrong underneath; the log has it.
      deps.observability.logger.error('export failed', { export_id: record.export_id, tenant_id: record.tenant_id, error_name: (error as Error).name });
      why = 'The export failed; ask for it again';
    }
    await finishExport(deps, key, { status: 'failed', rows: 0, error: why, object_key: null });
    return;
  }
  await finishExport(deps, key, { status: 'succeeded', rows, error: null, object_key: objectKey });
}

async function finishExport(deps: Deps, key: ReturnType<typeof keys.export>, outcome: Pick<ExportRecord, 'status' | 'rows' | 'error' | 'object_key'>): Promise<void> {
  await deps.table.update({
    Key: key,
    UpdateExpression: 'SET #status = :status, #rows = :rows, #error = :error, object_key = :key, finished_at = :now',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows', '#error': 'error' },
    ExpressionAttributeValues: { ':status': outcome.status, ':rows': outcome.rows, ':error': outcome.error, ':key': outcome.object_key, ':now': deps.clock.now().toISOString() },
  });
}
