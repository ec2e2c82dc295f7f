/**
 * The AWS engine of discovery runs: the run queue (SQS, with a dead-letter queue) that carries a
 * run from step to step, the worker's event source mapping on it, the EventBridge rule that
 * ticks the dispatcher every minute (its failed deliveries go to a dead-letter queue too), and
 * an alarm on each dead-letter queue.
 *
 * Why a rule and a dispatcher over due slots rather than one EventBridge Scheduler schedule per
 * connection: the table stays the single source of truth (a connection's schedule is one
 * attribute written in the same transaction as the connection, so it cannot drift from a
 * schedule kept elsewhere or outlive a deleted connection), the API functions need no
 * scheduler:* or iam:PassRole grant, the same dispatcher code runs on the local host, and a
 * slot is claimed with a conditional write, which makes double firing harmless. The cost is one
 * invocation a minute.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RUN_WORKER_TIMEOUT_SECONDS } from './function-timeouts';

// The worker's timeout and step length live with every other function's timeout (their budget is explained there).
export { RUN_STEP_SECONDS, RUN_WORKER_TIMEOUT_SECONDS } from './function-timeouts';

/**
 * AWS's advice for an SQS event source: a visibility timeout of at least six times the
 * function's timeout, so a throttled or failed invocation does not make a message visible
 * again while it is still being handled.
 */
export const RUN_QUEUE_VISIBILITY_SECONDS = 6 * RUN_WORKER_TIMEOUT_SECONDS;
/** A step redelivered this many times goes to the dead-letter queue (and the recovery takes over). */
export const RUN_QUEUE_MAX_RECEIVE_COUNT = 5;
/** The stalled-run recovery waits longer than a message can stay invisible. */
export const RUN_STALL_SECONDS = RUN_QUEUE_VISIBILITY_SECONDS + RUN_WORKER_TIMEOUT_SECONDS;

export class RunQueues extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly dispatchDeadLetterQueue: sqs.Queue;
  /** One alarm per dead-letter queue (infra/observability.ts sends them to the alarm topic). */
  readonly deadLetterAlarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: { env: string }) {
    super(scope, id);
    const common = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) };
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', { ...common, queueName: `tessera-${props.env}-runs-dlq` });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...common,
      queueName: `tessera-${props.env}-runs`,
      visibilityTimeout: Duration.seconds(RUN_QUEUE_VISIBILITY_SECONDS),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: RUN_QUEUE_MAX_RECEIVE_COUNT },
    });
    this.dispatchDeadLetterQueue = new sqs.Queue(this, 'DispatchDeadLetterQueue', { ...common, queueName: `tessera-${props.env}-dispatch-dlq` });
    Validations.of(this.dispatchDeadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'It is a dead-letter queue: the dead-letter target of the EventBridge rule that ticks the dispatcher (an event target DLQ, not an SQS redrive, so cdk-nag cannot see it).',
    });
    for (const dlq of [this.deadLetterQueue, this.dispatchDeadLetterQueue]) {
      Validations.of(dlq).acknowledge({ id: 'Serverless-SQSRedrivePolicy', reason: 'It is a dead-letter queue, the end of a redrive: its messages wait for an operator (its alarm notifies one).' });
    }

    for (const [name, dlq, what] of [
      ['RunDeadLetters', this.deadLetterQueue, 'run steps or purges failed repeatedly'],
      ['DispatchDeadLetters', this.dispatchDeadLetterQueue, 'scheduler ticks could not be delivered to the dispatcher'],
    ] as const) {
      this.deadLetterAlarms.push(new cloudwatch.Alarm(this, `${name}Alarm`, {
        alarmName: `tessera-${props.env}-${name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`,
        alarmDescription: `Tessera ${props.env}: ${what} (messages in ${dlq.node.id}); inspect them, then redrive or delete.`,
        metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }));
    }
  }

  /** The worker consumes the queue one message at a time, reporting failures per message. */
  attachWorker(worker: lambda.IFunction): void {
    worker.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true }));
    // The mapping sits under the worker's construct.
    Validations.of(worker).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason: 'An SQS mapping takes no on-failure destination; a message that keeps failing goes to the run queue\'s dead-letter queue by its redrive policy (maxReceiveCount), which has an alarm.',
    });
  }

  /** The dispatcher runs every minute. */
  attachDispatcher(scope: Construct, dispatcher: lambda.IFunction, expression: string): events.Rule {
    return new events.Rule(scope, 'RunDispatchSchedule', {
      description: 'Tessera: start due discovery runs and resume stalled ones',
      schedule: events.Schedule.expression(expression),
      targets: [new targets.LambdaFunction(dispatcher, { deadLetterQueue: this.dispatchDeadLetterQueue, retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
    });
  }
}
