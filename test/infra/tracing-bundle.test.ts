/**
 * The tracing seam (infra/tracing-plugin.ts): a bundle built with tracing off carries the no-op
 * (shared/tracing-off.ts) and neither the Powertools Tracer nor the X-Ray SDK, so issue 12's
 * bundles do not grow; a bundle built with tracing on carries them, and run as Lambda runs it
 * (Lambda's environment variables, a UDP listener where the X-Ray daemon would be) it sends the
 * invocation's subsegment with its DynamoDB call in it, and never the response.
 */
import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions } from '../../infra/bundle-options';
import { makeBundleBuildDir, removeBundleBuildDir } from '../support/bundle-build-dir';

const run = promisify(execFile);
const TRACER_PACKAGES = ['node_modules/@aws-lambda-powertools/tracer/', 'node_modules/aws-xray-sdk-core/'];

interface Segment {
  name: string;
  subsegments?: Segment[];
  [key: string]: unknown;
}
const namesIn = (segment: Segment): string[] => [segment.name, ...(segment.subsegments ?? []).flatMap(namesIn)];

describe('tracing in the Lambda bundles', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeBundleBuildDir('tracing-test-');
  });
  afterAll(() => {
    removeBundleBuildDir(dir);
  });

  const inputsOf = async (tracing: boolean) => {
    const result = await build({ ...lambdaBuildOptions('me-get', { tracing }), write: false, metafile: true, outdir: path.join(dir, String(tracing)) });
    const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
    return { inputs: Object.keys(result.metafile.inputs), bytes: output!.bytes, traced: output!.inputs };
  };

  it('leaves the Tracer and the X-Ray SDK out when tracing is off, and puts them in when it is on', async () => {
    const off = await inputsOf(false);
    const on = await inputsOf(true);
    expect(off.inputs).toContain('shared/tracing-off.ts');
    expect(off.inputs).not.toContain('shared/tracing.ts');
    expect(off.inputs.filter((input) => TRACER_PACKAGES.some((pkg) => input.includes(pkg)))).toEqual([]);
    // The seam itself costs a few bytes of a tracing-off bundle.
    expect(off.traced['shared/tracing-off.ts']!.bytesInOutput).toBeLessThan(200);
    expect(on.inputs).toContain('shared/tracing.ts');
    for (const pkg of TRACER_PACKAGES) expect(on.inputs.some((input) => input.includes(pkg)), pkg).toBe(true);
    expect(on.bytes).toBeGreaterThan(off.bytes);
  });

  describe('a traced bundle, run as Lambda runs it', () => {
    let daemon: Socket;
    const received: Segment[] = [];

    beforeAll(async () => {
      daemon = createSocket('udp4');
      // The daemon's protocol: a JSON header line, then one segment document per datagram.
      daemon.on('message', (message) => received.push(JSON.parse(message.toString('utf8').split('\n').slice(1).join('\n')) as Segment));
      await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    });
    afterAll(() => {
      daemon.close();
    });

    /** Builds `handler` with tracing on, invokes it once for `method path` in a fresh process with Lambda's tracing variables; what it answered. */
    const invokeTraced = async (handler: string, method: string, routePath: string) => {
      const outdir = path.join(dir, handler);
      await build({ ...lambdaBuildOptions(handler, { tracing: true }), outfile: path.join(outdir, 'index.mjs') });
      const runner = path.join(outdir, 'invoke.mjs');
      const event = { version: '2.0', routeKey: `${method} ${routePath}`, rawPath: routePath, rawQueryString: '', headers: {}, requestContext: { requestId: 'req-1', http: { method, path: routePath, sourceIp: '203.0.113.9', userAgent: 'test' } }, isBase64Encoded: false };
      writeFileSync(
        runner,
        [
          "import { handler } from './index.mjs';",
          `const event = ${JSON.stringify(event)};`,
          "const context = { awsRequestId: 'req-1', functionName: 'fn', getRemainingTimeInMillis: () => 10_000 };",
          'const answer = await handler(event, context);',
          // Let the SDK's segment emitter flush its datagrams before the process ends.
          'await new Promise((resolve) => setTimeout(resolve, 200));',
          'console.log(JSON.stringify(answer));',
        ].join('\n'),
      );
      const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('TESSERA_')));
      const { stdout } = await run(process.execPath, [runner], {
        cwd: outdir,
        env: {
          ...clean,
          // What Lambda sets for a sampled, traced invocation.
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
          LAMBDA_TASK_ROOT: outdir,
          _HANDLER: 'index.handler',
          _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
          AWS_REGION: 'eu-west-1',
          AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE',
          AWS_SECRET_ACCESS_KEY: 'secret',
          AWS_SESSION_TOKEN: 'token',
          POWERTOOLS_SERVICE_NAME: 'tessera',
          // Nothing listens there: a table call fails at once.
          DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
          TESSERA_DATA_DIR: path.join(outdir, 'data'),
        },
      });
      return JSON.parse(stdout.trim().split('\n').at(-1)!) as { statusCode: number; body: string };
    };

    it('sends the invocation\'s subsegment with its DynamoDB call in it', async () => {
      received.length = 0;
      const answer = await invokeTraced('health', 'GET', '/v1/health');
      expect(answer.statusCode).toBe(503);
      const handlerSegment = received.find((segment) => segment.name === '## index.handler');
      expect(handlerSegment, JSON.stringify(received.map(namesIn))).toBeDefined();
      const call = received.find((segment) => segment.name === 'DynamoDB');
      expect(call).toMatchObject({ parent_id: handlerSegment!.id, aws: { operation: 'GetItem' }, fault: true });
    });

    it('never copies a response into the trace', async () => {
      received.length = 0;
      const answer = await invokeTraced('openapi', 'GET', '/v1/openapi.json');
      expect(answer.statusCode).toBe(200);
      const handlerSegment = received.find((segment) => segment.name === '## index.handler');
      expect(handlerSegment, JSON.stringify(received.map(namesIn))).toBeDefined();
      expect(handlerSegment!.metadata).toBeUndefined();
      expect(JSON.stringify(received)).not.toContain('openapi');
    });
  });
});
