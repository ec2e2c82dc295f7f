/** A connection's daily schedule: hour and minute in its time zone (an IANA name). */
import { Field } from '../components/field';

export interface ScheduleValues {
  hour: string;
  minute: string;
  timezone: string;
}

export const defaultSchedule = (): ScheduleValues => ({ hour: '2', minute: '30', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' });

export function scheduleJson(values: ScheduleValues) {
  return { type: 'daily' as const, hour: Number(values.hour), minute: Number(values.minute), timezone: values.timezone };
}

export function ScheduleFields({ values, onChange, errors }: { values: ScheduleValues; onChange: (values: ScheduleValues) => void; errors: Record<string, string> }) {
  return (
    <fieldset>
      <legend>Daily run</legend>
      <Field id="schedule.hour" label="Hour (0–23)" type="number" min={0} max={23} required value={values.hour} error={errors['schedule.hour']} onInput={(e) => onChange({ ...values, hour: e.currentTarget.value })} />
      <Field id="schedule.minute" label="Minute (0–59)" type="number" min={0} max={59} required value={values.minute} error={errors['schedule.minute']} onInput={(e) => onChange({ ...values, minute: e.currentTarget.value })} />
      <Field id="schedule.timezone" label="Time zone" hint="An IANA name, such as Europe/Paris or UTC." required value={values.timezone} error={errors['schedule.timezone']} onInput={(e) => onChange({ ...values, timezone: e.currentTarget.value })} />
    </fieldset>
  );
}
