/**
 * Exports in the aws stage: the local host runs the real handlers with `TESSERA_STAGE=aws` on
 * DynamoDB Local, and the export files go through the S3 client the functions ship to the local
 * S3 of test/support/aws-wire (SigV4 checked, IAM policy applied). The job writes the file into
 * the exports bucket with its type and name; the content route answers a 302 to a URL presigned
 * for five minutes that the S3 server honours (and refuses once tampered with); a large file goes
 * up in multipart parts with the writer's grants alone (s3:PutObject, s3:AbortMultipartUpload);
 * another user still gets 404, and no URL. An export of many jobs carries one multipart upload
 * from job to job (its parts' ETags in the export's checkpoint) and completes it into the very
 * file one job writes: here with parts of 1 KiB, the local S3's minimum lowered to match (as
 * moto's `S3_UPLOAD_PART_MIN_SIZE` does), so a few dozen audit events make many parts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createS3ExportFiles } from '../../shared/exports/export-files';
import type { ExportRecord } from '../../shared/exports/export-records';
import { keys } from '../../shared/store/keys';
import { startAwsWire, pointSdkClientsAt, type AwsWire } from '../support/aws-wire/aws-stage';
import { TEST_REGION } from '../support/aws-wire/caller';
import { ALLOW_ALL } from '../support/aws-wire/iam-policy';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { listAll } from '../support/runs';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const BUCKET = 'tessera-exports-wire';
const PART_BYTES = 1024;
let wire: AwsWire;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let adminToken = '';
let colleagueToken = '';
const clock = new MovableClock();

beforeAll(async () => {
  wire = await startAwsWire();
  wire.s3.createBucket(BUCKET);
  wire.s3.minPartBytes = PART_BYTES;
  pointSdkClientsAt(wire);
  // The run queue stays the local host's, so the worker's handler runs the job in process.
  host = await startTestHost({ clock, env: { ...wire.config, TESSERA_EXPORTS_BUCKET: BUCKET, TESSERA_EXPORT_PART_BYTES: String(PART_BYTES), TESSERA_EXPORT_PAGE_SIZE: '2' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, adminToken, { email: `colleague@${tenant.domain}`, role: 'admin' });
  colleagueToken = (await login(http, clock, `colleague@${tenant.domain}`)).accessToken;
});

afterAll(async () => {
  await host?.close();
  await wire?.close();
  vi.unstubAllEnvs();
});

describe('exports in the aws stage', () => {
  it('writes the file into the exports bucket and answers its content with a 302 to a short-lived presigned URL', async () => {
    expect(host.config.exportFiles).toEqual({ kind: 's3', bucket: BUCKET });
    const asked = await http.request('POST', '/v1/exports', { token: adminToken, body: { source: 'audit_events', format: 'ndjson' } });
    expect(asked.status, asked.text).toBe(202);
    const exportId = (asked.body as { export_id: string }).export_id;
    await host.runQueue.idle();
    const record = await http.request('GET', `/v1/exports/${exportId}`, { token: adminToken });
    expect(record.body, record.text).toMatchObject({ status: 'succeeded', error: null });
    const events = await listAll<unknown>(http, adminToken, '/v1/audit-events', 'audit_events');
    expect(events.length).toBeGreaterThan(0);
    expect((record.body as { rows: number }).rows).toBe(events.length);

    const key = `${tenant.tenantId}/${tenant.workspaceId}/${exportId}.ndjson`;
    expect([...wire.s3.objects(BUCKET).keys()]).toContain(key);
    const filename = `tessera-audit-events-${exportId}.ndjson`;
    expect(wire.s3.objectHeaders(BUCKET, key)).toEqual({ 'content-type': 'application/x-ndjson', 'content-disposition': `attachment; filename="${filename}"` });

    const content = await http.request('GET', `/v1/exports/${exportId}/content`, { token: adminToken });
    expect(content.status, content.text).toBe(302);
    const url = new URL(content.headers.location!);
    expect(`${url.origin}`).toBe(new URL(wire.s3.endpoint).origin);
    expect(url.pathname).toBe(`/${BUCKET}/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(new RegExp(`/${TEST_REGION}/s3/aws4_request$`));
    expect(url.searchParams.get('response-content-disposition')).toBe(`attachment; filename="${filename}"`);

    // What the browser does with the 302: no credential of Tessera's, just the URL.
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/x-ndjson');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`);
    const lines = (await file.text()).split('\n').filter((l) => l !== '');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(events);

    // The signature covers the key: the URL cannot be turned toward another object.
    const tampered = new URL(url);
    tampered.pathname = `/${BUCKET}/${tenant.tenantId}/${tenant.workspaceId}/exp_someoneelse.ndjson`;
    expect((await fetch(tampered)).status).toBe(403);
    const unsigned = new URL(url);
    unsigned.searchParams.delete('X-Amz-Signature');
    expect((await fetch(unsigned)).status).toBe(403);
  });

  it('signs no URL for anyone but the creator', async () => {
    const asked = await http.request('POST', '/v1/exports', { token: adminToken, body: { source: 'people', format: 'csv' } });
    expect(asked.status, asked.text).toBe(202);
    const exportId = (asked.body as { export_id: string }).export_id;
    await host.runQueue.idle();
    const other = await http.request('GET', `/v1/exports/${exportId}/content`, { token: colleagueToken });
    expect(other.status).toBe(404);
    expect(other.headers.location).toBeUndefined();
    const own = await http.request('GET', `/v1/exports/${exportId}/content`, { token: adminToken });
    expect(own.status).toBe(302);
    // An export with no rows is still a file: the header alone.
    expect(await (await fetch(own.headers.location!)).text()).toBe('person_id,display_name,emails,accounts,connections\r\n');
  });

  it('sends a large file up in multipart parts with the writer\'s grants alone, and the reader\'s grant alone reads it back', async () => {
    const objects = `arn:aws:s3:::${BUCKET}/*`;
    wire.s3.policy = [{ Effect: 'Allow', Action: ['s3:PutObject', 's3:AbortMultipartUpload'], Resource: objects }];
    try {
      const files = createS3ExportFiles({ bucket: BUCKET, region: TEST_REGION, endpoint: wire.s3.endpoint, partBytes: 5 * 1024 * 1024 });
      const key = `${tenant.tenantId}/${tenant.workspaceId}/exp_multipart0000000000000000.csv`;
      const meta = { contentType: 'text/csv; charset=utf-8; header=present', filename: 'big.csv' };
      const writer = await files.create(key, meta);
      const line = `${'x'.repeat(1000)},é\r\n`;
      const chunk = line.repeat(64);
      const chunks = 200; // about 12.9 MB: two full parts and a last one
      for (let i = 0; i < chunks; i++) await writer.write(chunk);
      await writer.finish();
      expect(wire.s3.openUploads).toBe(0);
      const stored = wire.s3.objects(BUCKET).get(key)!;
      expect(Buffer.byteLength(stored)).toBe(Buffer.byteLength(chunk) * chunks);
      expect(stored === chunk.repeat(chunks)).toBe(true);
      expect(wire.s3.objectHeaders(BUCKET, key)).toEqual({ 'content-type': meta.contentType, 'content-disposition': 'attachment; filename="big.csv"' });

      // A writer that fails leaves no upload behind.
      const aborted = await files.create(`${tenant.tenantId}/${tenant.workspaceId}/exp_aborted00000000000000000.csv`, meta);
      for (let i = 0; i < 90; i++) await aborted.write(chunk);
      expect(wire.s3.openUploads).toBe(1);
      await aborted.abort();
      expect(wire.s3.openUploads).toBe(0);

      // The reader's grant is GetObject alone; the writer's did not include it.
      const answer = await files.answer(key, meta);
      expect(answer.kind).toBe('redirect');
      const url = (answer as { url: string }).url;
      expect((await fetch(url)).status).toBe(403);
      wire.s3.policy = [{ Effect: 'Allow', Action: 's3:GetObject', Resource: objects }];
      const read = await fetch(url);
      expect(read.status).toBe(200);
      expect((await read.text()) === stored).toBe(true);
    } finally {
      wire.s3.policy = ALLOW_ALL;
    }
  });

  it('writes an export of many jobs as one multipart upload carried from job to job: the file one job writes, in CSV and NDJSON', async () => {
    // Workspace audit events to export (an export request is one), all before `until`: the exports' own requests come after.
    for (let i = 0; i < 12; i++) expect((await http.request('POST', '/v1/exports', { token: adminToken, body: { source: 'people', format: 'csv' } })).status).toBe(202);
    await host.runQueue.idle();
    const until = clock.now().toISOString();
    clock.advance(60);
    const exportOnce = async (format: 'csv' | 'ndjson', sliceSeconds: number) => {
      host.deps.config.exportSliceSeconds = sliceSeconds;
      try {
        const asked = await http.request('POST', '/v1/exports', { token: adminToken, body: { source: 'audit_events', format, until } });
        expect(asked.status, asked.text).toBe(202);
        const exportId = (asked.body as { export_id: string }).export_id;
        await host.runQueue.idle();
        const record = await http.request('GET', `/v1/exports/${exportId}`, { token: adminToken });
        expect(record.body, record.text).toMatchObject({ status: 'succeeded', error: null });
        const content = await http.request('GET', `/v1/exports/${exportId}/content`, { token: adminToken });
        expect(content.status, content.text).toBe(302);
        const file = await fetch(content.headers.location!);
        expect(file.status).toBe(200);
        const stored = await host.deps.table.get<ExportRecord>(keys.export(tenant.tenantId, tenant.workspaceId, exportId));
        const key = `${tenant.tenantId}/${tenant.workspaceId}/${exportId}.${format}`;
        return { text: await file.text(), rows: (record.body as { rows: number }).rows, slices: stored?.slices ?? 0, parts: wire.s3.partsOf(BUCKET, key) };
      } finally {
        host.deps.config.exportSliceSeconds = 120;
      }
    };
    for (const format of ['csv', 'ndjson'] as const) {
      const one = await exportOnce(format, 120);
      const many = await exportOnce(format, 0);
      expect(one.slices, format).toBe(1);
      expect(many.rows, format).toBe(one.rows);
      expect(many.rows, format).toBeGreaterThanOrEqual(12);
      // Each job of no time stops once it has put a part up: the parts came from many jobs.
      expect(many.slices, format).toBeGreaterThan(3);
      expect(many.parts, format).toBeGreaterThanOrEqual(many.slices - 1);
      expect(many.text === one.text, `${format}: the files differ\n${many.text}\n---\n${one.text}`).toBe(true);
      expect(Buffer.byteLength(many.text)).toBeGreaterThan(3 * PART_BYTES);
    }
    expect(wire.s3.openUploads).toBe(0);
  });

  it('settles a buffer of S3\'s minimum part as a part at a job\'s end (less has no checkpoint), and a writer re-created from the checkpoint completes the same upload', async () => {
    // Real part sizes: 8 MiB parts, S3's 5 MiB minimum (the local S3's lowered minimum does not apply to it).
    const minimum = wire.s3.minPartBytes;
    wire.s3.minPartBytes = 5 * 1024 * 1024;
    try {
      const files = createS3ExportFiles({ bucket: BUCKET, region: TEST_REGION, endpoint: wire.s3.endpoint });
      const key = `${tenant.tenantId}/${tenant.workspaceId}/exp_settled00000000000000000.csv`;
      const meta = { contentType: 'text/csv; charset=utf-8; header=present', filename: 'settled.csv' };
      const page = `${'y'.repeat(1023)}\n`.repeat(1024); // 1 MiB
      const first = await files.create(key, meta);
      for (let i = 0; i < 4; i++) expect(await first.write(page)).toBeUndefined();
      // 4 MiB: under the minimum, nothing is durable yet.
      expect(await first.settle()).toBeUndefined();
      expect(wire.s3.openUploads).toBe(0);
      expect(await first.write(page)).toBeUndefined();
      // 5 MiB: one part, and the checkpoint says so.
      const checkpoint = await first.settle();
      expect(checkpoint).toMatchObject({ kind: 's3', upload_id: expect.any(String), etags: [expect.any(String)] });
      await first.write('written after the checkpoint: redone by the next job\n');
      await first.release();
      expect(wire.s3.openUploads).toBe(1);

      const second = await files.create(key, meta, checkpoint);
      await second.write(page);
      await second.finish();
      expect(wire.s3.openUploads).toBe(0);
      expect(wire.s3.partsOf(BUCKET, key)).toBe(2);
      expect(wire.s3.objects(BUCKET).get(key) === page.repeat(6)).toBe(true);
    } finally {
      wire.s3.minPartBytes = minimum;
    }
  });
});
