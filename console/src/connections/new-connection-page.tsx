/**
 * A connection from the catalog: pick an integration, and its published schemas make the
 * scope and configuration forms. Nothing is prefilled from the catalog's example (its values
 * are placeholders, its secrets not even that), so pressing Create never sends the example.
 * Every missing or out-of-range field is reported at once, beside its field, before anything
 * is sent; the API's own errors land the same way. An Idempotency-Key per form makes a double
 * submit create one connection.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { fieldErrors, formMessage, type Problem } from '../api/problem';
import { send } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { navigate } from '../routing/router';
import { PageHeader } from '../components/page-header';
import { defaultSchedule, scheduleErrors, ScheduleFields, scheduleJson, type ScheduleValues } from './schedule-fields';
import { formValuesOf, jsonOf, missingRequired, SchemaFields, type FormValues, type ObjectSchema } from './schema-form';

type Integration = Schemas['Integration'];

export function NewConnectionPage() {
  const [integrations, setIntegrations] = useState<Integration[]>([]);
  const [selected, setSelected] = useState<string>('');
  const [name, setName] = useState('');
  const [scope, setScope] = useState<FormValues>({});
  const [configuration, setConfiguration] = useState<FormValues>({});
  const [schedule, setSchedule] = useState<ScheduleValues>(defaultSchedule);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [missing, setMissing] = useState<Record<string, string>>({});
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
    setScope(formValuesOf(s, undefined, { withSecrets: false }));
    setConfiguration(formValuesOf(c, undefined, { withSecrets: false }));
    setProblem(undefined);
    setMissing({});
  }

  async function create(event: Event) {
    event.preventDefault();
    if (!integration || !scopeSchema || !configurationSchema) return;
    const found = {
      ...(name.trim() ? {} : { name: 'Name is required.' }),
      ...missingRequired('scope', scopeSchema, scope),
      ...missingRequired('configuration', configurationSchema, configuration),
      ...scheduleErrors(schedule),
    };
    setMissing(found);
    if (Object.keys(found).length > 0) {
      setProblem(undefined);
      focusFirstError();
      return;
    }
    const outcome = await send(() =>
      api.POST('/v1/connections', {
        headers: { 'Idempotency-Key': idempotencyKey },
        body: { integration_id: integration.integration_id, name, scope: jsonOf(scopeSchema, scope), configuration: jsonOf(configurationSchema, configuration), schedule: scheduleJson(schedule) },
      }),
    );
    if (!outcome.ok) {
      setProblem(outcome.problem);
      focusFirstError();
      return;
    }
    navigate(`/connections/${encodeURIComponent(outcome.data.connection_id)}`);
  }

  const errors = { ...fieldErrors(problem), ...missing };
  const paths = [...Object.keys(errors)].filter((path) => document.getElementById(path));
  const count = Object.keys(missing).length;
  return (
    <main>
      <PageHeader title="New connection" />
      <FormMessage message={count > 0 ? `${count === 1 ? 'One field needs' : `${count} fields need`} your attention: see the messages beside them.` : formMessage(problem, paths)} />
      <div class="field">
        <label for="integration">Integration</label>
        <select id="integration" value={selected} onChange={(e) => choose(e.currentTarget.value)}>
          <option value="">Choose one…</option>
          {integrations.map((i) => <option key={i.integration_id} value={i.integration_id}>{i.name}</option>)}
        </select>
      </div>
      {integration && scopeSchema && configurationSchema && (
        <form noValidate onSubmit={(e) => void create(e)}>
          <p class="hint">The greyed examples in the fields show the format; type your own values. Secrets are never prefilled.</p>
          <Field id="name" label="Name" required maxLength={100} value={name} error={errors.name} onInput={(e) => setName(e.currentTarget.value)} />
          <SchemaFields prefix="scope" legend="Scope" schema={scopeSchema} values={scope} onChange={setScope} errors={errors} example={scopeSchema.examples?.[0]} />
          <SchemaFields prefix="configuration" legend="Configuration (write-only: never shown again)" schema={configurationSchema} values={configuration} onChange={setConfiguration} errors={errors} example={configurationSchema.examples?.[0]} />
          <ScheduleFields values={schedule} onChange={setSchedule} errors={errors} />
          <button type="submit">Create the connection</button>
        </form>
      )}
    </main>
  );
}

/** After the errors render: focus the first field marked invalid, so the reader starts at the first thing to fix. */
function focusFirstError() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('main [aria-invalid="true"]')?.focus());
}
