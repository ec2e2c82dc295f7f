import { CreateExportBodySchema, CreatedExportSchema } from '../../shared/exports/export-schemas';
import { responseHeaders } from '../../shared/http/headers';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'POST', path: '/v1/exports', handler: 'exports-create', auth: 'bearer', tag: 'exports',
  summary: 'Export a list as CSV or NDJSON, as a job: entities, relationships, people, access, access changes or audit events of your workspace. Needs the permission of that list (`connections:read`; `audit:read` for audit events); only you may read the export',
  request: { body: CreateExportBodySchema },
  responses: {
    202: { description: 'Queued; Location is the export\'s URL, to poll until `succeeded`', schema: CreatedExportSchema, headers: { Location: responseHeaders.createdLocation } },
    400: problem('validation_failed: an unknown source or format, a filter the source does not take, a missing connection_id (entities, relationships; access with entity_id), until not after since'),
    403: problem('forbidden: the credential lacks the permission the source needs'),
    404: problem('not_found: the connection, person or entity named does not exist in your workspace'),
  },
});
