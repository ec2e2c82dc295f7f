/** The context of the repository's cdk.json (its `environments`, …), as `cdk synth` gives it to the app. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPOSITORY } from './npm-start';

export function cdkJsonContext(): Record<string, unknown> {
  return (JSON.parse(readFileSync(path.join(REPOSITORY, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
}
