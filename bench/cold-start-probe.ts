/**
 * One cold start, in a fresh `node` process (bench/cold-start.ts bundles this file and runs it
 * once per sample): imports a function bundle, then hands its handler one event. Prints CPU
 * and wall time of the import and of the first invocation, and the answer's status, as JSON.
 * Everything the probe itself needs is loaded before the clock starts.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { lambdaContext } from '../infra/local/lambda-context';

const [bundle, handlerName] = process.argv.slice(2) as [string, string];
const { event } = JSON.parse(readFileSync(0, 'utf8')) as { event: unknown };
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

let cpu = process.cpuUsage();
let wall = performance.now();
const mod = (await import(pathToFileURL(bundle).href)) as { handler: (event: unknown, context: unknown) => Promise<unknown> };
const importCpuMs = cpuMs(process.cpuUsage(cpu));
const importWallMs = performance.now() - wall;

const context = lambdaContext(handlerName, 30_000);
cpu = process.cpuUsage();
wall = performance.now();
const result = (await mod.handler(event, context)) as { statusCode?: number; batchItemFailures?: unknown[] } | undefined;
const firstCpuMs = cpuMs(process.cpuUsage(cpu));
const firstWallMs = performance.now() - wall;

const status = typeof result?.statusCode === 'number' ? String(result.statusCode) : result?.batchItemFailures ? `${result.batchItemFailures.length} failures` : 'done';
process.stdout.write(JSON.stringify({ importCpuMs, importWallMs, firstCpuMs, firstWallMs, status }));
// Keep-alive sockets and SDK timers must not hold the sample open.
process.exit(0);
