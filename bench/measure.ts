/** Timing helpers of the bench: warm-up, percentiles, and the ratio table. */
import { performance } from 'node:perf_hooks';

export interface Row {
  name: string;
  iterations: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function latency(name: string, iterations: number, run: () => Promise<unknown>): Promise<Row> {
  for (let i = 0; i < Math.min(20, iterations); i++) await run(); // warm-up: JIT, connections, caches
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { name, iterations, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/**
 * Latencies of several scenarios taken in turn, a block of each at a time after a long warm-up
 * of each: for a ratio between them, so that a machine that slows down (or a JIT still
 * compiling, here and in DynamoDB Local's JVM) weighs on both sides alike.
 */
export async function interleavedLatency(scenarios: { name: string; run: () => Promise<unknown> }[], options: { warmup: number; blocks: number; perBlock: number }): Promise<Row[]> {
  for (const scenario of scenarios) for (let i = 0; i < options.warmup; i++) await scenario.run();
  const samples = scenarios.map(() => [] as number[]);
  for (let b = 0; b < options.blocks; b++) {
    for (const [index, scenario] of scenarios.entries()) {
      for (let i = 0; i < options.perBlock; i++) {
        const start = performance.now();
        await scenario.run();
        samples[index]!.push(performance.now() - start);
      }
    }
  }
  return scenarios.map((scenario, index) => {
    const sorted = samples[index]!.sort((a, b) => a - b);
    return { name: scenario.name, iterations: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
}

export function printTable(rows: Row[], baseline: Row): void {
  console.log(`${'scenario'.padEnd(42)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'p50 ×base'.padStart(10)} ${'p99 ×base'.padStart(10)}`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(42)} ${String(r.iterations).padStart(5)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${(r.p50 / baseline.p50).toFixed(1).padStart(10)} ${(r.p99 / baseline.p99).toFixed(1).padStart(10)}`,
    );
  }
}
