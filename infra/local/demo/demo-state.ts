/**
 * What the demo keeps between its starts, beside the data it made: the generated admin password
 * (when none was given), the admin's TOTP secret (so that `npm run tessera -- totp` can answer
 * the sign-in's challenge) and the secret the demo IdP shares with Tessera. A file of the data
 * directory, readable by its owner only, like the local key files: this is a machine's demo,
 * and these are its stand-ins' credentials, worth nothing anywhere else.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface DemoState {
  tenant_id: string;
  admin_email: string;
  /** Only when the demo chose it. */
  generated_admin_password?: string;
  totp_secret: string;
  idp_client_secret: string;
  /** The IdP's issuer saved in the tenant's configuration (its port follows PORT). */
  idp_issuer: string;
}

export const demoStatePath = (dataDir: string) => path.join(dataDir, 'demo.json');

export async function readDemoState(dataDir: string): Promise<DemoState | undefined> {
  try {
    return JSON.parse(await readFile(demoStatePath(dataDir), 'utf8')) as DemoState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function writeDemoState(dataDir: string, state: DemoState): Promise<void> {
  await writeFile(demoStatePath(dataDir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
