/**
 * An export job, as the run queue's worker runs it (shared/runs/run-worker.ts): it reads its
 * source page by page with the creator's workspace scope, encodes each page and hands it to the
 * file writer, then records the row count and the file's key. The scope comes from the stored
 * record (written from the creator's credential), never from the message alone: a message that
 * names no export of that workspace does nothing.
 *
 * An export of a large workspace (every person's access among 100,000 people) outlives one
 * worker invocation, so it is written in slices, one job each: a slice writes for
 * `exportSliceSeconds` (and never past the invocation's deadline), stops at a page boundary,
 * keeps the last durable checkpoint in the record (the source's position, the rows, the writer's
 * state: export-files.ts, export-sources.ts) and queues the next slice, which resumes from it.
 * Whatever was written past the checkpoint (an S3 buffer under a part's minimum) is thrown away
 * and written again. A slice writes on past its time until it has a checkpoint of its own, so
 * each one moves the file on; an export that needs more than `exportMaxSlices` fails, naming it.
 *
 * Delivery is at least once, and a stale or duplicate message must never write the file while
 * another slice does: the record counts the slices begun and holds a lease (until the
 * invocation's end) that a slice takes and gives back with conditional writes. A message runs
 * only the slice after the last one begun, once that one has ended; or its own slice again when
 * an earlier delivery of it died (lease expired); a message whose slice ended queues its
 * successor again (that send may be what was lost). Anything else is dropped. A finished export
 * is left alone; any failure fails the export (logged), so no export stays `running` for a
 * client to poll forever.
 */
import type { Deps } from '../deps';
import { TesseraError } from '../errors';
import { JOB_SAFETY_MARGIN_MS } from '../jobs/job';
import type { RunMessage } from '../runs/run-queue';
import { runQueueOf } from '../runs/run-queue';
import { keys } from '../store/keys';
import { isConditionFailure } from '../store/client';
import { ExportFileLimitError, exportFiles, type ExportFileWriter } from './export-files';
import { rowEncoder } from './export-formats';
import { exportFileMeta, exportObjectKey, type ExportCheckpoint, type ExportRecord } from './export-records';
import { sourceReader } from './export-sources';

export type ExportMessage = Extract<RunMessage, { type: 'export' }>;

type ExportKey = ReturnType<typeof keys.export>;

/** The export needs more jobs than `exportMaxSlices`: said to the client. */
class ExportTooLongError extends Error {}

/** The lease as the record holds it: `slices` begun, `lease_until` (0: the last one ended). */
const leaseOf = (record: ExportRecord) => ({ slices: record.slices ?? 0, until: record.lease_until ?? 0 });

export async function runExport(deps: Deps, message: ExportMessage, options: { deadlineMs: number }): Promise<void> {
  const key = keys.export(message.tenant_id, message.workspace_id, message.export_id);
  const record = await deps.table.get<ExportRecord>(key);
  if (!record || record.status === 'succeeded' || record.status === 'failed') return;
  const slice = message.slice ?? 1;
  const held = leaseOf(record);
  const startMs = Date.now();
  const next = held.slices === slice - 1 && held.until === 0;
  const redo = held.slices === slice && held.until !== 0 && held.until < startMs;
  if (held.slices === slice && held.until === 0) {
    await queueSlice(deps, message, slice + 1);
    return;
  }
  if (!next && !redo) return; // a stale message, or a duplicate while its slice runs

  try {
    await deps.table.update({
      Key: key,
      UpdateExpression: `SET #status = :running, slices = :slice, lease_until = :until${slice === 1 ? ', started_at = :now, #rows = :zero' : ''}`,
      ConditionExpression: `#status IN (:queued, :running) AND ${held.slices === 0 ? 'attribute_not_exists(slices)' : 'slices = :held'} AND ${record.lease_until === undefined ? 'attribute_not_exists(lease_until)' : 'lease_until = :heldUntil'}`,
      ExpressionAttributeNames: { '#status': 'status', ...(slice === 1 ? { '#rows': 'rows' } : {}) },
      ExpressionAttributeValues: {
        ':running': 'running', ':queued': 'queued', ':slice': slice, ':until': options.deadlineMs + JOB_SAFETY_MARGIN_MS,
        ...(slice === 1 ? { ':now': deps.clock.now().toISOString(), ':zero': 0 } : {}),
        ...(held.slices === 0 ? {} : { ':held': held.slices }),
        ...(record.lease_until === undefined ? {} : { ':heldUntil': record.lease_until }),
      },
    });
  } catch (error) {
    if (isConditionFailure(error)) return; // another delivery took this slice first
    throw error;
  }
  await writeSlice(deps, key, record, message, slice, { sliceEndMs: Math.min(options.deadlineMs, startMs + deps.config.exportSliceSeconds * 1000), deadlineMs: options.deadlineMs });
}

async function writeSlice(deps: Deps, key: ExportKey, record: ExportRecord, message: ExportMessage, slice: number, time: { sliceEndMs: number; deadlineMs: number }): Promise<void> {
  const scope = { tenantId: record.tenant_id, workspaceId: record.workspace_id };
  const reader = sourceReader(deps, scope, record.source, record.filters);
  const encoder = rowEncoder(record.format, reader.rowSchema);
  const objectKey = exportObjectKey(record);
  const from = record.checkpoint ?? undefined;
  let writer: ExportFileWriter | undefined;
  let last = from;
  let rows = from?.rows ?? 0;
  let queueNext = false;
  try {
    writer = await deps.part(exportFiles).create(objectKey, exportFileMeta(record), from?.file);
    if (!from) {
      const header = encoder.header();
      const file = header ? await writer.write(header) : undefined;
      if (file) last = { rows, file };
    }
    let more = false;
    for await (const page of reader.pages(from?.position)) {
      const file = await writer.write(page.rows.map((item) => encoder.row(item)).join(''));
      rows += page.rows.length;
      if (file) last = { position: page.after, rows, file };
      if (page.after.kind === 'end' || Date.now() < time.sliceEndMs) continue;
      // The slice's time is over: stop where the writer can make everything durable, else at
      // its last checkpoint, as long as this slice has one of its own (or the deadline is here).
      const settled = await writer.settle();
      if (settled) last = { position: page.after, rows, file: settled };
      if (last !== from || Date.now() >= time.deadlineMs) {
        more = true;
        break;
      }
    }
    if (!more) {
      await writer.finish();
      await finishExport(deps, key, slice, { status: 'succeeded', rows, error: null, object_key: objectKey });
      return;
    }
    if (slice >= deps.config.exportMaxSlices) throw new ExportTooLongError(`The export did not finish within ${deps.config.exportMaxSlices} jobs (${rows} rows written)`);
    await writer.release();
    queueNext = await recordCheckpoint(deps, key, slice, last);
  } catch (error) {
    await failSlice(deps, key, record, slice, writer, error, rows);
    return;
  }
  if (queueNext) await queueSlice(deps, message, slice + 1);
}

/** Keeps the checkpoint and gives the lease back; false when another delivery has taken the export over. */
async function recordCheckpoint(deps: Deps, key: ExportKey, slice: number, checkpoint: ExportCheckpoint | undefined): Promise<boolean> {
  try {
    await deps.table.update({
      Key: key,
      UpdateExpression: 'SET checkpoint = :checkpoint, #rows = :rows, lease_until = :free',
      ConditionExpression: '#status = :running AND slices = :slice',
      ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows' },
      ExpressionAttributeValues: { ':checkpoint': checkpoint ?? null, ':rows': checkpoint?.rows ?? 0, ':free': 0, ':running': 'running', ':slice': slice },
    });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A lost send fails this delivery: the queue delivers it again, and that delivery sends it (runExport). */
async function queueSlice(deps: Deps, message: ExportMessage, slice: number): Promise<void> {
  await runQueueOf(deps).send({ type: 'export', tenant_id: message.tenant_id, workspace_id: message.workspace_id, export_id: message.export_id, slice });
}

async function failSlice(deps: Deps, key: ExportKey, record: ExportRecord, slice: number, writer: ExportFileWriter | undefined, error: unknown, rows: number): Promise<void> {
  // A client's mistake the job found (the entity went, the person left): the export failed, say why.
  let why: string;
  if (error instanceof ExportFileLimitError || error instanceof ExportTooLongError) why = `${error.message}; narrow it with connection_id, person_id or since/until`;
  else if (error instanceof TesseraError && error.status < 500) why = error.message;
  else {
    // Said to the client without what went wrong underneath; the log has it.
    deps.observability.logger.error('export failed', { export_id: record.export_id, tenant_id: record.tenant_id, slice, rows, error_name: (error as Error).name });
    why = 'The export failed; ask for it again';
  }
  // Only the lease holder throws the file away: another delivery may be writing it now.
  if (await finishExport(deps, key, slice, { status: 'failed', rows: 0, error: why, object_key: null })) await writer?.abort();
  else await writer?.release().catch(() => undefined);
}

async function finishExport(deps: Deps, key: ExportKey, slice: number, outcome: Pick<ExportRecord, 'status' | 'rows' | 'error' | 'object_key'>): Promise<boolean> {
  try {
    await deps.table.update({
      Key: key,
      UpdateExpression: 'SET #status = :status, #rows = :rows, #error = :error, object_key = :key, finished_at = :now, lease_until = :free REMOVE checkpoint',
      ConditionExpression: 'attribute_exists(PK) AND slices = :slice',
      ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows', '#error': 'error' },
      ExpressionAttributeValues: { ':status': outcome.status, ':rows': outcome.rows, ':error': outcome.error, ':key': outcome.object_key, ':now': deps.clock.now().toISOString(), ':free': 0, ':slice': slice },
    });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
