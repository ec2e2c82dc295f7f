/**
 * The audit anchor in AWS: an S3 bucket with Object Lock in compliance mode (infra/audit-anchor-bucket.ts).
 * Each recorded head is an object of its own, `<chain>/<seq, 12 digits>-<digest>`, put only
 * if no object has that key (If-None-Match: *): the key holds the whole record, so a check
 * lists the chain's keys and reads no object. The functions' roles may put objects, never
 * delete them, and Object Lock keeps every version for the retention period whoever asks.
 */
import { createS3Client, S3ResponseError, type S3ClientOptions } from '../aws/s3-client';
import type { ChainLink } from '../store/table-client';
import { anchorChainName, bySeq, type AuditAnchor, type AuditChainRef } from './audit-anchor';

const SEQ_DIGITS = 12;
const HEAD_KEY = /\/(\d{12})-([0-9a-f]{64})$/;

export const anchorObjectKey = (chain: AuditChainRef, head: ChainLink) => `${anchorChainName(chain)}/${String(head.seq).padStart(SEQ_DIGITS, '0')}-${head.digest}`;

export function createS3AuditAnchor(options: { bucket: string } & S3ClientOptions): AuditAnchor {
  const s3 = createS3Client(options);
  return {
    async record(chain: AuditChainRef, head: ChainLink): Promise<void> {
      try {
        await s3.putObject({ bucket: options.bucket, key: anchorObjectKey(chain, head), body: JSON.stringify(head), contentType: 'application/json', ifNoneMatch: true });
      } catch (error) {
        // The same key is the same record: one recorded already (a retry) is what was asked for.
        if (error instanceof S3ResponseError && error.status === 412) return;
        throw error;
      }
    },
    async heads(chain: AuditChainRef): Promise<ChainLink[]> {
      const heads: ChainLink[] = [];
      let token: string | undefined;
      do {
        const page = await s3.listObjectKeys({ bucket: options.bucket, prefix: `${anchorChainName(chain)}/`, continuationToken: token });
        for (const key of page.keys) {
          const match = HEAD_KEY.exec(key);
          if (match) heads.push({ seq: Number(match[1]), digest: match[2]! });
        }
        token = page.nextContinuationToken;
      } while (token);
      return heads.sort(bySeq);
    },
  };
}
