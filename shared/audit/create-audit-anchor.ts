/**
 * The audit anchor of the stage (S3 in AWS, an append-only file locally), made on first use
 * for a given `Deps` and kept with it. Only the code that appends to an audit chain or checks
 * one imports this module, so only those functions' bundles carry the S3 client (shared/aws/s3-client.ts), and
 * infra/handler-capabilities.ts grants `s3:PutObject` on the anchor bucket to exactly those.
 */
import type { DepsPart } from '../deps';
import type { AuditAnchor } from './audit-anchor';
import { createFileAuditAnchor } from './file-audit-anchor';
import { createS3AuditAnchor } from './s3-audit-anchor';

export const auditAnchor: DepsPart<AuditAnchor> = {
  name: 'audit anchor',
  create: (deps) => {
    const where = deps.config.auditAnchor;
    return where.kind === 's3' ? createS3AuditAnchor({ bucket: where.bucket, region: deps.config.region, endpoint: deps.config.awsEndpoints.s3 }) : createFileAuditAnchor({ file: where.path, clock: deps.clock });
  },
};
