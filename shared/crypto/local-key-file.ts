/**
 * Local mode keeps key material in files under the data directory, standing in for KMS and
 * Secrets Manager. The first process to need a key creates it; concurrent starters race on an
 * exclusive create and the losers read the winner's file.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function readOrCreateKeyFile<T>(file: string, create: () => Promise<T> | T): Promise<T> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = await create();
  try {
    await writeFile(file, JSON.stringify(value, null, 2), { flag: 'wx', mode: 0o600 });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(await readFile(file, 'utf8')) as T;
  }
}

/** Replaces a key file (a rotation): written aside and renamed, so a reader sees the old file or the new one, never half of one. */
export async function replaceKeyFile<T>(file: string, value: T): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const next = `${file}.${process.pid}.tmp`;
  await writeFile(next, JSON.stringify(value, null, 2), { mode: 0o600 });
  await rename(next, file);
}
