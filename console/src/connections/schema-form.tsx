/**
 * Inputs generated from an integration's published JSON Schema (`configuration_schema`,
 * `scope_schema`): one labelled field per property, its description as the hint. `writeOnly`
 * properties (secrets) are password inputs that are never filled, neither from the server nor
 * from the catalog's example; the example's other values are shown as placeholders, never as
 * values a Create would send. Arrays of strings are one value per line. A description's `code`
 * marks are shown as code, not as backticks. Field ids follow the API's error paths
 * (`configuration.api_token`), so a problem's `errors[].path` lands next to its input.
 */
import type { JSX } from 'preact';
import { PlainHint } from '../components/plain-hint';

export interface PropertySchema {
  type?: string;
  description?: string;
  writeOnly?: boolean;
  items?: { type?: string };
  minLength?: number;
  maxLength?: number;
}

export interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
  examples?: Record<string, unknown>[];
}

/** The values as the form holds them: text, or for arrays one item per line. */
export type FormValues = Record<string, string>;

export function formValuesOf(schema: ObjectSchema, value: Record<string, unknown> | undefined, options: { withSecrets: boolean }): FormValues {
  const values: FormValues = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const v = value?.[name];
    if (property.writeOnly && !options.withSecrets) values[name] = '';
    else if (Array.isArray(v)) values[name] = v.join('\n');
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') values[name] = String(v);
    else values[name] = v === undefined || v === null ? '' : JSON.stringify(v);
  }
  return values;
}

/** The JSON value of the form: empty optional fields left out, arrays split by line. */
export function jsonOf(schema: ObjectSchema, values: FormValues, options: { omitEmpty: boolean } = { omitEmpty: true }): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const raw = values[name] ?? '';
    if (raw.trim() === '' && options.omitEmpty) continue;
    json[name] = property.type === 'array' ? raw.split('\n').map((line) => line.trim()).filter(Boolean) : raw;
  }
  return json;
}

export interface SchemaFieldsProps {
  /** The body field the values go to (`configuration`, `scope`), the prefix of ids and error paths. */
  prefix: string;
  legend: string;
  schema: ObjectSchema;
  values: FormValues;
  onChange: (values: FormValues) => void;
  errors: Record<string, string>;
  /**
   * Editing the configuration: the stored one is never read back, so every field starts empty
   * and the whole set is optional (left empty, the stored configuration stays).
   */
  replaceOnly?: boolean;
  /** The catalog's example: its non-secret values become placeholders. */
  example?: Record<string, unknown> | undefined;
}

/** Every required property left empty, as `{ "prefix.name": "… is required." }`: the form shows them all at once. */
export function missingRequired(prefix: string, schema: ObjectSchema, values: FormValues): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const name of schema.required ?? []) {
    if (!schema.properties?.[name]) continue;
    if ((values[name] ?? '').trim() === '') missing[`${prefix}.${name}`] = `${labelOf(name)} is required.`;
  }
  return missing;
}

function placeholderOf(property: PropertySchema, value: unknown): string | undefined {
  if (property.writeOnly || value === undefined || value === null) return undefined;
  const text = Array.isArray(value) ? value.join(', ') : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return text ? `For example: ${text}` : undefined;
}

export function SchemaFields({ prefix, legend, schema, values, onChange, errors, replaceOnly, example }: SchemaFieldsProps) {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return null;
  return (
    <fieldset>
      <legend>{legend}</legend>
      {entries.map(([name, property]) => {
        const id = `${prefix}.${name}`;
        const error = errors[id] ?? Object.entries(errors).find(([path]) => path.startsWith(`${id}.`))?.[1];
        const isRequired = required.has(name) && !replaceOnly;
        const hint = [property.description, property.type === 'array' ? 'One per line.' : '', ].filter(Boolean).join(' ');
        const common = {
          id,
          name: id,
          required: isRequired,
          'aria-invalid': error ? ('true' as const) : undefined,
          'aria-describedby': [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
          value: values[name] ?? '',
          placeholder: placeholderOf(property, example?.[name]),
          onInput: (event: JSX.TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange({ ...values, [name]: event.currentTarget.value }),
        };
        return (
          <div class="field" key={id}>
            <label for={id}>{labelOf(name)}{isRequired ? '' : ' (optional)'}</label>
            {hint && <small id={`${id}-hint`}><PlainHint text={hint} /></small>}
            {property.type === 'array'
              ? <textarea rows={3} {...common} />
              : <input type={property.writeOnly ? 'password' : 'text'} autocomplete={property.writeOnly ? 'new-password' : 'off'} {...common} />}
            {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
          </div>
        );
      })}
    </fieldset>
  );
}

function labelOf(name: string): string {
  const words = name.split('_').map((word) => (['id', 'ids', 'url', 'api', 'arn'].includes(word) ? word.toUpperCase().replace('IDS', 'IDs') : word));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
