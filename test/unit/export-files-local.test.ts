/**
 * Local export files go as the bucket's lifecycle rule makes them go in AWS: a new file first
 * sweeps away those older than an export's life (a day and an hour, by the files' own times),
 * abandoned `.partial` ones too, and leaves every younger file alone.
 */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalExportFiles } from '../../shared/exports/export-files';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;

async function fileAged(relative: string, ageMs: number): Promise<void> {
  const file = path.join(dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'a,b\r\n');
  const at = new Date(Date.now() - ageMs);
  await utimes(file, at, at);
}

describe('local export files', () => {
  it('a new file sweeps the files older than a day and an hour, in every workspace, and keeps the rest', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tessera-exports-'));
    await fileAged('t1/w1/exp_old.csv', 26 * HOUR);
    await fileAged('t2/w9/exp_old_partial.ndjson.partial', 48 * HOUR);
    await fileAged('t1/w1/exp_young.csv', 24 * HOUR);
    await fileAged('t2/w9/exp_fresh.ndjson', 0);
    const writer = await createLocalExportFiles(dir).create('t1/w2/exp_new.csv', { contentType: 'text/csv', filename: 'new.csv' });
    await writer.write('x\r\n');
    await writer.finish();
    const left = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
    expect(left).toEqual(['t1/w1/exp_young.csv', 't1/w2/exp_new.csv', 't2/w9/exp_fresh.ndjson']);
  });
});
