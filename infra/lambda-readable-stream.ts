/**
 * What the Lambda bundles use in place of `readable-stream` (an esbuild `alias`, see
 * infra/bundle-options.ts). `readable-stream` 3 is a copy of Node's own `stream` module for
 * old runtimes and browsers; the Encryption SDK's encrypt and decrypt streams (and `duplexify`
 * under them) are its only users here, and they take `Transform`, `PassThrough`, `Duplex`,
 * `Readable`, `Writable`, `finished` and `pipeline` from it. Node 22 has all of them: the copy
 * is ~40 KiB of a bundle for nothing. The package itself offers the same swap
 * (`READABLE_STREAM=disable` makes it re-export the core module); this does it at build time.
 * One difference is kept: the copy's `pipeline` takes its callback as optional (its callers
 * here pass none), core's requires one. Checked by test/infra/lambda-envelope-bundle.test.ts,
 * which runs the envelope crypto bundled.
 */
import { pipeline as corePipeline } from 'node:stream';

export { Duplex, PassThrough, Readable, Stream, Transform, Writable, finished } from 'node:stream';

// The streams, then optionally a callback, as readable-stream 3 takes them; errors still reach the streams' own 'error' events.
export function pipeline(...streams: unknown[]): unknown {
  const args = typeof streams.at(-1) === 'function' ? streams : [...streams, () => {}];
  return (corePipeline as (...args: unknown[]) => unknown)(...args);
}
