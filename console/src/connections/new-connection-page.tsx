/**
 * A connection from the catalog: pick an integration, and its published schemas make the
 * scope and configuration forms, prefilled with the integration's example (secrets included,
 * since the example is public text to replace). An Idempotency-Key per form makes a double
 * submit create one connection.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { navigate } from '../routing/router';
import { defaultSchedule, ScheduleFields, scheduleJson, type ScheduleValues } from './schedule-fields';
import { formValuesOf, jsonOf, SchemaFields, type FormValues, type ObjectSchema } from './schema-form';

type Integration = Schemas['Integration'];

export function NewConnectionPage() {
  const [integrations, setIntegrations] = useState<Integration[]>([]);
  const [selected, setSelected] = useState<string>('');
  const [name, setName] = useState('');
  const [scope, setScope] = useState<FormValues>({});
  const [configuration, setConfiguration] = useState<FormValues>({});
  const [schedule, setSchedule] = useState<ScheduleValues>(defaultSchedule);
  const [problem, setProblem] = useState<Problem | undefined>();
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);

  useEffect(() => {
    void send(() => api.GET('/v1/integrations')).then((outcome) => {
      if (outcome.ok) setIntegrations(outcome.data.integrations);
      else setProblem(outcome.problem);
    });
  }, []);

  const integration = integrations.find((i) => i.integration_id === selected);
  const scopeSchema = integration?.scope_schema as ObjectSchema | undefined;
  const configurationSchema = integration?.configuration_schema as ObjectSchema | undefined;

  function choose(id: string) {
    setSelected(id);
    const chosen = integrations.find((i) => i.integration_id === id);
    if (!chosen) return;
    const s = chosen.scope_schema as ObjectSchema;
    const c = chosen.configuration_schema as ObjectSchema;
    setName(chosen.name);
    setScope(formValuesOf(s, s.examples?.[0], { withSecrets: true }));
    setConfiguration(formValuesOf(c, c.examples?.[0], { withSecrets: true }));
    setProblem(undefined);
  }

  async function create(event: Event) {
    event.preventDefault();
    if (!integration || !scopeSchema || !configurationSchema) return;
    const outcome = await send(() =>
      api.POST('/v1/connections', {
        headers: { 'Idempotency-Key': idempotencyKey },
        body: { integration_id: integration.integration_id, name, scope: jsonOf(scopeSchema, scope), configuration: jsonOf(configurationSchema, configuration), schedule: scheduleJson(schedule) },
      }),
    );
    if (!outcome.ok) return setProblem(outcome.problem);
    navigate(`/connections/${encodeURIComponent(outcome.data.connection_id)}`);
  }

  const errors = fieldErrors(problem);
  const paths = [...Object.keys(errors)].filter((path) => document.getElementById(path));
  return (
    <main>
      <h1>New connection</h1>
      <FormMessage message={formMessage(problem, paths)} />
      <div class="field">
        <label for="integration">Integration</label>
        <select id="integration" value={selected} onChange={(e) => choose(e.currentTarget.value)}>
          <option value="">Choose one…</option>
          {integrations.map((i) => <option key={i.integration_id} value={i.integration_id}>{i.name}</option>)}
        </select>
      </div>
      {integration && scopeSchema && configurationSchema && (
        <form onSubmit={(e) => void create(e)}>
          <p class="hint">Prefilled with the catalog's example: replace it with your own values.</p>
          <Field id="name" label="Name" required maxLength={100} value={name} error={errors.name} onInput={(e) => setName(e.currentTarget.value)} />
          <SchemaFields prefix="scope" legend="Scope" schema={scopeSchema} values={scope} onChange={setScope} errors={errors} />
          <SchemaFields prefix="configuration" legend="Configuration (write-only: never shown again)" schema={configurationSchema} values={configuration} onChange={setConfiguration} errors={errors} />
          <ScheduleFields values={schedule} onChange={setSchedule} errors={errors} />
          <button type="submit">Create the connection</button>
        </form>
      )}
    </main>
  );
}
