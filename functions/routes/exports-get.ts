import { ExportPathSchema, ExportSchema } from '../../shared/exports/export-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/exports/{export_id}', handler: 'exports-get', auth: 'bearer', tag: 'exports',
  summary: 'An export you asked for: its status and, once succeeded, its row count',
  request: { params: ExportPathSchema },
  responses: {
    200: { description: 'The export', schema: ExportSchema },
    403: problem('forbidden: the credential lacks the permission the source needs'),
    404: problem('not_found: no such export of yours (another user\'s is not found either), or it expired'),
  },
});
