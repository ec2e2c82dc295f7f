/**
 * Where export files are written and how a client gets one, by stage (config `exportFiles`):
 *
 * - AWS: the exports bucket (infra/exports-bucket.ts: SSE, no public access, objects expire
 *   after a day). The job streams the file up in parts of about `exportPartBytes` (one PutObject
 *   when it is smaller), so a worker holds one part at most, whatever the export's size; the
 *   content route answers a 302 to a GET URL signed for `SIGNED_URL_SECONDS`, which names the
 *   file's type and name in its `response-content-*` parameters.
 * - Local: files under `<data dir>/exports/<tenant>/<workspace>/`, appended to as the job goes
 *   (written as `.partial`, renamed when complete) and answered by the content route itself.
 *   Each new file first sweeps away the files older than an export's life (a day, and an hour
 *   of margin, by the files' own times): what the bucket's lifecycle rule does in AWS.
 *
 * An export may take several jobs (export-job.ts), so a writer says when what it was given is
 * durable (a part uploaded, a chunk written to the file) with a small checkpoint the job keeps
 * in the export's record, and a writer re-created from that checkpoint goes on where it was: the
 * same multipart upload with the next part number, or the `.partial` cut back to the
 * checkpoint's length (what a job wrote after it is redone by the next one). Writes are whole
 * pages, and a part goes up only at the end of a write, so every checkpoint falls on a page
 * boundary the job can name a source position for.
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DepsPart } from '../deps';
import { NotFoundError } from '../errors';
import { EXPORT_RETENTION_SECONDS } from './export-records';
import { createS3Client, type S3ClientOptions } from '../aws/s3-client';

/** S3's parts are 5 MiB at least (all but the last); a little more keeps a margin. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
/** S3's smallest part but the last. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/**
 * The most parts a checkpoint lists (S3 allows 10,000): an ETag is some 35 bytes in the export's
 * record, which DynamoDB caps at 400 KB. With 8 MiB parts that is a file of over 30 GiB.
 */
export const MAX_EXPORT_PARTS = 4_000;
/** How long a signed URL of an export works. */
export const SIGNED_URL_SECONDS = 300;
/** Local files are written in chunks of this size. */
const FILE_CHUNK_BYTES = 64 * 1024;

export interface ExportFileMeta {
  contentType: string;
  /** The name a browser saves it under. */
  filename: string;
}

/**
 * What of a file is durable, enough for a later writer to go on from (kept in the export's
 * record): the local file's length, or the multipart upload and its parts' ETags (part n is
 * `etags[n - 1]`).
 */
export type ExportFileCheckpoint = { kind: 'file'; bytes: number } | { kind: 's3'; upload_id: string; etags: string[] };

export interface ExportFileWriter {
  /** Appends; when this made everything written so far durable, the checkpoint that says so. */
  write(text: string): Promise<ExportFileCheckpoint | undefined>;
  /**
   * Makes what is buffered durable if the store takes it now (a local file always; S3 once it
   * is at least a part's minimum), and answers the checkpoint of everything written so far;
   * undefined when some of it could not be (the job then goes back to its last checkpoint).
   */
  settle(): Promise<ExportFileCheckpoint | undefined>;
  /** The file is complete and readable under its key. */
  finish(): Promise<void>;
  /** Throws away what was written. */
  abort(): Promise<void>;
  /** Lets the file be, as its last checkpoint left it, for a writer re-created from that checkpoint. */
  release(): Promise<void>;
}

/** The file would outgrow what a checkpoint can list: said to the client (export-job.ts). */
export class ExportFileLimitError extends Error {}

export type ExportFileAnswer = { kind: 'redirect'; url: string } | { kind: 'content'; body: string };

export interface ExportFiles {
  /** A new file, or (with `from`) the file a checkpoint left, written on from there. */
  create(key: string, meta: ExportFileMeta, from?: ExportFileCheckpoint): Promise<ExportFileWriter>;
  answer(key: string, meta: ExportFileMeta): Promise<ExportFileAnswer>;
}

export const contentDisposition = (filename: string) => `attachment; filename="${filename}"`;

export const exportFiles: DepsPart<ExportFiles> = {
  name: 'export files',
  create: (deps) => {
    const where = deps.config.exportFiles;
    return where.kind === 's3'
      ? createS3ExportFiles({ bucket: where.bucket, region: deps.config.region, endpoint: deps.config.awsEndpoints.s3, partBytes: deps.config.exportPartBytes })
      : createLocalExportFiles(where.dir);
  },
};

/** Keys are made of ids only (`<tenant>/<workspace>/<export>.<ext>`): nothing a client chose. */
const SAFE_KEY = /^[a-z0-9_]+\/[a-z0-9_]+\/[a-z0-9_]+\.(csv|ndjson)$/;

function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key)) throw new Error(`not an export key: ${key}`);
}

/** By the machine's time, not the service clock a test may move: only a file's age on disk matters. */
const LOCAL_FILE_LIFE_MS = (EXPORT_RETENTION_SECONDS + 3_600) * 1000;

/** Removes the export files (and abandoned `.partial` ones) older than an export's life. */
async function sweepExpiredExportFiles(dir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > LOCAL_FILE_LIFE_MS) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

export function createLocalExportFiles(dir: string): ExportFiles {
  return {
    async create(key, _meta, from) {
      assertSafeKey(key);
      if (from && from.kind !== 'file') throw new Error('not a local file checkpoint');
      await sweepExpiredExportFiles(dir);
      const file = path.join(dir, key);
      const partial = `${file}.partial`;
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      let handle: FileHandle;
      let written = 0;
      if (from) {
        // What the last job wrote past its checkpoint is cut off: the next pages write it again.
        handle = await open(partial, 'r+');
        const { size } = await handle.stat();
        if (size < from.bytes) {
          await handle.close();
          throw new Error(`the export's partial file holds ${size} bytes, fewer than its checkpoint's ${from.bytes}`);
        }
        await handle.truncate(from.bytes);
        written = from.bytes;
      } else {
        handle = await open(partial, 'w', 0o600);
      }
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (): Promise<ExportFileCheckpoint> => {
        if (pendingBytes > 0) {
          const body = Buffer.concat(pending);
          pending = [];
          pendingBytes = 0;
          await handle.write(body, 0, body.length, written);
          written += body.length;
        }
        return { kind: 'file', bytes: written };
      };
      return {
        async write(text) {
          const chunk = Buffer.from(text, 'utf8');
          pending.push(chunk);
          pendingBytes += chunk.length;
          return pendingBytes >= FILE_CHUNK_BYTES ? flush() : undefined;
        },
        async settle() {
          const checkpoint = await flush();
          await handle.datasync();
          return checkpoint;
        },
        async finish() {
          await flush();
          await handle.close();
          await rename(partial, file);
        },
        async abort() {
          await handle.close().catch(() => undefined);
          await rm(partial, { force: true });
        },
        async release() {
          await handle.close();
        },
      };
    },
    async answer(key) {
      assertSafeKey(key);
      try {
        return { kind: 'content', body: await readFile(path.join(dir, key), 'utf8') };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError('export');
        throw error;
      }
    },
  };
}

export function createS3ExportFiles(options: { bucket: string; partBytes?: number } & S3ClientOptions): ExportFiles {
  const partBytes = options.partBytes ?? S3_PART_BYTES;
  // Smaller parts than S3's minimum only reach a local S3 whose minimum is lowered (config.ts).
  const minPartBytes = Math.min(partBytes, S3_MIN_PART_BYTES);
  const s3 = createS3Client(options);
  const bucket = options.bucket;
  return {
    // Nothing is sent until the first part is full: the upload begins with it.
    create(key, meta, from) {
      assertSafeKey(key);
      if (from && from.kind !== 's3') throw new Error('not an S3 upload checkpoint');
      const objectMeta = { bucket, key, contentType: meta.contentType, contentDisposition: contentDisposition(meta.filename) };
      let buffered: Buffer[] = [];
      let bufferedBytes = 0;
      let uploadId: string | undefined = from?.upload_id;
      const etags: string[] = [...(from?.etags ?? [])];
      const checkpoint = (): ExportFileCheckpoint => ({ kind: 's3', upload_id: uploadId!, etags: [...etags] });
      const take = () => {
        const body = Buffer.concat(buffered);
        buffered = [];
        bufferedBytes = 0;
        return body;
      };
      // Part numbers follow the checkpoint's parts: a part a lost job uploaded past it is overwritten.
      const uploadPart = async (body: Buffer) => {
        if (etags.length >= MAX_EXPORT_PARTS) throw new ExportFileLimitError(`The export is larger than ${MAX_EXPORT_PARTS} parts of ${Math.round(partBytes / 1024 / 1024)} MiB`);
        uploadId ??= await s3.createMultipartUpload(objectMeta);
        etags.push(await s3.uploadPart({ bucket, key, uploadId, partNumber: etags.length + 1, body }));
      };
      return Promise.resolve({
        async write(text) {
          const chunk = Buffer.from(text, 'utf8');
          buffered.push(chunk);
          bufferedBytes += chunk.length;
          if (bufferedBytes < partBytes) return undefined;
          await uploadPart(take());
          return checkpoint();
        },
        async settle() {
          if (bufferedBytes >= minPartBytes) await uploadPart(take());
          return bufferedBytes === 0 && uploadId ? checkpoint() : undefined;
        },
        async finish() {
          if (!uploadId) {
            await s3.putObject({ ...objectMeta, body: take() });
            return;
          }
          if (bufferedBytes > 0) await uploadPart(take());
          await s3.completeMultipartUpload({ bucket, key, uploadId, parts: etags.map((etag, i) => ({ etag, partNumber: i + 1 })) });
        },
        async abort() {
          buffered = [];
          // The bucket's lifecycle rule removes an upload this call could not.
          if (uploadId) await s3.abortMultipartUpload({ bucket, key, uploadId }).catch(() => undefined);
        },
        release() {
          buffered = [];
          return Promise.resolve();
        },
      });
    },
    async answer(key, meta) {
      assertSafeKey(key);
      const url = await s3.presignGetObject({ bucket, key, expiresIn: SIGNED_URL_SECONDS, responseContentType: meta.contentType, responseContentDisposition: contentDisposition(meta.filename) });
      return { kind: 'redirect', url };
    },
  };
}
