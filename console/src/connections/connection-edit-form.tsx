/**
 * Edit a connection with `If-Match`: the change applies only to the version this page read.
 * When someone else changed it meanwhile (412), the page says so and offers to reload instead
 * of overwriting. The configuration is never read back: empty fields keep the stored one.
 */
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { useTransientMessage } from '../components/transient-message';
import { ScheduleFields, scheduleJson, type ScheduleValues } from './schedule-fields';
import { formValuesOf, jsonOf, SchemaFields, type FormValues, type ObjectSchema } from './schema-form';

export interface EditFormProps {
  connection: Schemas['Connection'];
  etag: string;
  integration: Schemas['Integration'];
  onSaved: (connection: Schemas['Connection'], etag: string) => void;
  onReload: () => void;
}

export function ConnectionEditForm({ connection, etag, integration, onSaved, onReload }: EditFormProps) {
  const scopeSchema = integration.scope_schema as ObjectSchema;
  const configurationSchema = integration.configuration_schema as ObjectSchema;
  const [name, setName] = useState(connection.name);
  const [scope, setScope] = useState<FormValues>(() => formValuesOf(scopeSchema, connection.scope, { withSecrets: false }));
  const [configuration, setConfiguration] = useState<FormValues>(() => formValuesOf(configurationSchema, undefined, { withSecrets: false }));
  const [schedule, setSchedule] = useState<ScheduleValues>({ hour: String(connection.schedule.hour), minute: String(connection.schedule.minute), timezone: connection.schedule.timezone });
  const [problem, setProblem] = useState<Problem | undefined>();
  const [conflict, setConflict] = useState(false);
  // Stays mounted across a save (connection-page keys it by reload, not by ETag), so focus stays on Save changes and the confirmation is read out beside it.
  const [saved, setSaved] = useTransientMessage();

  async function save(event: Event) {
    event.preventDefault();
    const changedConfiguration = jsonOf(configurationSchema, configuration);
    const outcome = await send(() =>
      api.PATCH('/v1/connections/{id}', {
        params: { path: { id: connection.connection_id }, header: { 'If-Match': etag } },
        body: {
          name,
          scope: jsonOf(scopeSchema, scope),
          schedule: scheduleJson(schedule),
          // The configuration is replaced whole, so it is sent only when every required field is given again.
          ...(Object.keys(changedConfiguration).length > 0 ? { configuration: changedConfiguration } : {}),
        },
      }),
    );
    if (!outcome.ok) {
      setConflict(outcome.problem.code === 'precondition_failed');
      return setProblem(outcome.problem);
    }
    setProblem(undefined);
    setConflict(false);
    // The typed configuration is stored and never shown again: the fields empty out.
    setConfiguration(formValuesOf(configurationSchema, undefined, { withSecrets: false }));
    setSaved(`Changes to ${outcome.data.name} saved.`);
    onSaved(outcome.data, outcome.response.headers.get('etag') ?? etag);
  }

  const errors = fieldErrors(problem);
  return (
    <form onSubmit={(e) => void save(e)} aria-labelledby="edit-title">
      <h2 id="edit-title">Edit</h2>
      {conflict ? (
        <div role="alert" class="form-error">
          <p>Someone else changed this connection since you opened it. Your changes were not saved.</p>
          <button type="button" onClick={onReload}>Load the latest version</button>
        </div>
      ) : <FormMessage message={formMessage(problem, Object.keys(errors))} />}
      <Field id="name" label="Name" required maxLength={100} value={name} error={errors.name} onInput={(e) => setName(e.currentTarget.value)} />
      <SchemaFields prefix="scope" legend="Scope" schema={scopeSchema} values={scope} onChange={setScope} errors={errors} />
      <SchemaFields prefix="configuration" legend="New configuration (all fields, or leave empty to keep the stored one)" schema={configurationSchema} values={configuration} onChange={setConfiguration} errors={errors} replaceOnly />
      <ScheduleFields values={schedule} onChange={setSchedule} errors={errors} />
      <div class="actions">
        <button type="submit">Save changes</button>
        <FormMessage message={saved} tone="info" />
      </div>
    </form>
  );
}
