/**
 * The audit anchor in AWS: an S3 bucket with Object Lock in compliance mode (infra/audit-anchor-bucket.ts).
 * Each recorded head is an object of its own, `<chain>/<seq, 12 digits>-<digest>`, put only
 * if no object has that key (If-None-Match: *): the key holds the whole record, so a check
 * lists the chain's keys and reads no object. The functions' roles may put objects, never
 * delete them, and Object Lock keeps every version for the retention period whoever asks.
 *
 * The S3 client is loaded on a function's first append (a dynamic import): a cold start that
 * appends nothing does not pay for it.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { ChainLink } from '../store/table-client';
import { tracing } from '../tracing';
import { anchorChainName, bySeq, type AuditAnchor, type AuditChainRef } from './audit-anchor';

const SEQ_DIGITS = 12;
const HEAD_KEY = /\/(\d{12})-([0-9a-f]{64})$/;

export const anchorObjectKey = (chain: AuditChainRef, head: ChainLink) => `${anchorChainName(chain)}/${String(head.seq).padStart(SEQ_DIGITS, '0')}-${head.digest}`;

type S3Sdk = typeof S3;

export function createS3AuditAnchor(options: { bucket: string; region: string }): AuditAnchor {
  let loaded: Promise<{ sdk: S3Sdk; client: S3.S3Client }> | undefined;
  const s3 = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: tracing.captureClient(new sdk.S3Client({ region: options.region })) })).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
  return {
    async record(chain: AuditChainRef, head: ChainLink): Promise<void> {
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.PutObjectCommand({ Bucket: options.bucket, Key: anchorObjectKey(chain, head), Body: JSON.stringify(head), ContentType: 'application/json', IfNoneMatch: '*' }));
      } catch (error) {
        // The same key is the same record: one recorded already (a retry) is what was asked for.
        const name = (error as Error).name;
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (name === 'PreconditionFailed' || status === 412) return;
        throw error;
      }
    },
    async heads(chain: AuditChainRef): Promise<ChainLink[]> {
      const { sdk, client } = await s3();
      const heads: ChainLink[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: options.bucket, Prefix: `${anchorChainName(chain)}/`, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const match = HEAD_KEY.exec(object.Key ?? '');
          if (match) heads.push({ seq: Number(match[1]), digest: match[2]! });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return heads.sort(bySeq);
    },
  };
}
