/**
 * A connection's daily schedule: hour and minute in its time zone, picked from the IANA names
 * the browser knows (`Intl.supportedValuesOf('timeZone')`), so no misspelt zone reaches the API.
 */
import { Field } from '../components/field';

/** UTC first (Chromium's list names only the geographic zones), then the browser's zones; a stored zone it does not list stays choosable. */
export function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...known, ...(current ? [current] : [])])];
}

/** Hour and minute out of range, as error paths to messages (the time zone cannot be wrong: it is picked). */
export function scheduleErrors(values: ScheduleValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const inRange = (text: string, max: number) => /^\d{1,2}$/.test(text.trim()) && Number(text) <= max;
  if (!inRange(values.hour, 23)) errors['schedule.hour'] = 'Hour must be a whole number from 0 to 23.';
  if (!inRange(values.minute, 59)) errors['schedule.minute'] = 'Minute must be a whole number from 0 to 59.';
  return errors;
}

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
      <div class="field">
        <label for="schedule.timezone">Time zone</label>
        <select
          id="schedule.timezone"
          name="schedule.timezone"
          required
          value={values.timezone}
          aria-invalid={errors['schedule.timezone'] ? 'true' : undefined}
          aria-describedby={errors['schedule.timezone'] ? 'schedule.timezone-error' : undefined}
          onChange={(e) => onChange({ ...values, timezone: e.currentTarget.value })}
        >
          {timeZones(values.timezone).map((zone) => <option key={zone} value={zone}>{zone.replaceAll('_', ' ')}</option>)}
        </select>
        {errors['schedule.timezone'] && <p class="field-error" id="schedule.timezone-error">{errors['schedule.timezone']}</p>}
      </div>
    </fieldset>
  );
}
