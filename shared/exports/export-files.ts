/**
 * Where export files are written and how a client gets one, by stage (config `exportFiles`):
 *
 * - AWS: the exports bucket (infra/exports-bucket.ts: SSE, no public access, objects expire
 *   after a day). The job streams the file up in parts of `S3_PART_BYTES` (one PutObject when it
 *   is smaller), so a worker holds one part at most, whatever the export's size; the content
 *   route answers a 302 to a GET URL signed for `SIGNED_URL_SECONDS`, which names the file's
 *   type and name in its `response-content-*` parameters.
 * - Local: files under `<data dir>/exports/<tenant>/<workspace>/`, appended to as the job goes
 *   (written as `.partial`, renamed when complete) and answered by the content route itself.
 *   Each new file first sweeps away the files older than an export's life (a day, and an hour
 *   of margin, by the files' own times): what the bucket's lifecycle rule does in AWS.
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DepsPart } from '../deps';
import { NotFoundError } from '../errors';
import { EXPORT_RETENTION_SECONDS } from './export-records';
import { createS3Client, type S3ClientOptions } from '../aws/s3-client';

/** S3's parts are 5 MiB at least (all but the last); a little more keeps a margin. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
/** How long a signed URL of an export works. */
export const SIGNED_URL_SECONDS = 300;
/** Local files are written in chunks of this size. */
const FILE_CHUNK_BYTES = 64 * 1024;

export interface ExportFileMeta {
  contentType: string;
  /** The name a browser saves it under. */
  filename: string;
}

export interface ExportFileWriter {
  write(text: string): Promise<void>;
  /** The file is complete and readable under its key. */
  finish(): Promise<void>;
  /** Throws away what was written. */
  abort(): Promise<void>;
}

export type ExportFileAnswer = { kind: 'redirect'; url: string } | { kind: 'content'; body: string };

export interface ExportFiles {
  create(key: string, meta: ExportFileMeta): Promise<ExportFileWriter>;
  answer(key: string, meta: ExportFileMeta): Promise<ExportFileAnswer>;
}

export const contentDisposition = (filename: string) => `attachment; filename="${filename}"`;

export const exportFiles: DepsPart<ExportFiles> = {
  name: 'export files',
  create: (deps) => {
    const where = deps.config.exportFiles;
    return where.kind === 's3' ? createS3ExportFiles({ bucket: where.bucket, region: deps.config.region, endpoint: deps.config.awsEndpoints.s3 }) : createLocalExportFiles(where.dir);
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
    async create(key) {
      assertSafeKey(key);
      await sweepExpiredExportFiles(dir);
      const file = path.join(dir, key);
      const partial = `${file}.partial`;
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // Truncated: a redelivered job writes the file again from its start.
      const handle: FileHandle = await open(partial, 'w', 0o600);
      let pending: string[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (pending.length === 0) return;
        await handle.write(pending.join(''));
        pending = [];
        pendingBytes = 0;
      };
      return {
        async write(text) {
          pending.push(text);
          pendingBytes += text.length;
          if (pendingBytes >= FILE_CHUNK_BYTES) await flush();
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
  const s3 = createS3Client(options);
  const bucket = options.bucket;
  return {
    // Nothing is sent until the first part is full: the upload begins with it.
    create(key, meta) {
      assertSafeKey(key);
      const objectMeta = { bucket, key, contentType: meta.contentType, contentDisposition: contentDisposition(meta.filename) };
      let buffered: Buffer[] = [];
      let bufferedBytes = 0;
      let uploadId: string | undefined;
      const parts: { etag: string; partNumber: number }[] = [];
      const take = () => {
        const body = Buffer.concat(buffered);
        buffered = [];
        bufferedBytes = 0;
        return body;
      };
      const uploadPart = async (body: Buffer) => {
        uploadId ??= await s3.createMultipartUpload(objectMeta);
        const partNumber = parts.length + 1;
        parts.push({ etag: await s3.uploadPart({ bucket, key, uploadId, partNumber, body }), partNumber });
      };
      return Promise.resolve({
        async write(text) {
          const chunk = Buffer.from(text, 'utf8');
          buffered.push(chunk);
          bufferedBytes += chunk.length;
          if (bufferedBytes >= partBytes) await uploadPart(take());
        },
        async finish() {
          if (!uploadId) {
            await s3.putObject({ ...objectMeta, body: take() });
            return;
          }
          if (bufferedBytes > 0) await uploadPart(take());
          await s3.completeMultipartUpload({ bucket, key, uploadId, parts });
        },
        async abort() {
          buffered = [];
          // The bucket's lifecycle rule removes an upload this call could not.
          if (uploadId) await s3.abortMultipartUpload({ bucket, key, uploadId }).catch(() => undefined);
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
