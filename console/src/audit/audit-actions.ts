/**
 * The actions each audit log holds, for the console's action filter (a select, not a constant
 * to type). The identity log's come from the server's own catalogue (every writer of that log
 * must name one of them); the workspace log holds the connection and export events.
 */
import { identityAuditActions } from '../../../shared/audit/identity-audit-actions';

export const WORKSPACE_AUDIT_ACTIONS = ['connection_created', 'connection_edited', 'connection_deleted', 'connection_tested', 'connection_run_started', 'connection_run_finished', 'export_requested'] as const;

export const IDENTITY_AUDIT_ACTIONS = Object.keys(identityAuditActions).sort();

/** "connection_run_finished" → "Connection run finished". */
export function actionLabel(action: string): string {
  const words = action.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
