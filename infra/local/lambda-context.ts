/** The Lambda context the local host hands a handler: a name, a request id and a deadline. */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

export function lambdaContext(handlerName: string, timeoutMs: number, memoryMb = 1024): Context {
  const deadline = Date.now() + timeoutMs;
  const functionName = `tessera-local-${handlerName}`;
  const unsupported = () => {
    throw new Error('Callback-style completion is not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
