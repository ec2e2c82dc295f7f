import * as z from 'zod/mini';
import { defineRoute, problem, redirectTo } from '../../shared/http/route';
import { ExportPathSchema } from '../../shared/exports/export-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/exports/{export_id}/content', handler: 'exports-content', auth: 'bearer', tag: 'exports',
  summary: 'The file of a succeeded export (CSV: RFC 4180 with a header row; NDJSON: one item per line). In AWS a 302 to a signed URL that works for 5 minutes',
  request: { params: ExportPathSchema },
  responses: {
    200: {
      description: 'The file (local mode), with Content-Disposition naming it',
      contentType: ['text/csv', 'application/x-ndjson'],
      schema: z.string(),
      headers: { 'Content-Disposition': { description: 'attachment; filename="tessera-<source>-<export_id>.<csv|ndjson>"', schema: z.string(), required: true } },
    },
    302: redirectTo('The file at a short-lived signed URL of the exports bucket (AWS)'),
    403: problem('forbidden: the credential lacks the permission the source needs'),
    404: problem('not_found: no such export of yours, or it expired'),
    409: problem('conflict: the export has not succeeded (still queued or running, or failed)'),
  },
});
