/**
 * How rows become a file.
 *
 * NDJSON (`application/x-ndjson`): one JSON object per line, exactly the list item.
 *
 * CSV (`text/csv`, RFC 4180): a header row, then one row per item, lines ended by CRLF. The
 * columns come from the item's schema: a nested object with named fields (an entity ref, a
 * person) spreads into dotted columns (`target.display_name`); arrays, open-ended maps
 * (`attributes`, `payload`) and anything else structured is one cell of JSON. A field that holds
 * a comma, a quote, CR or LF is quoted, its quotes doubled. A text cell that a spreadsheet
 * would take for a formula (it begins with `=`, `+`, `-`, `@`, TAB or CR: OWASP "CSV
 * Injection") gets a leading `'`, so opening an export never runs what a provider's display
 * name carried; NDJSON keeps every value as is.
 */
import type * as z from 'zod/mini';
import type { ExportFormat } from './export-schemas';

export interface RowEncoder {
  contentType: string;
  extension: string;
  /** What comes before the first row (the CSV header). */
  header(): string;
  row(item: object): string;
}

interface Column {
  name: string;
  path: readonly string[];
}

type Def = { type: string; innerType?: z.core.$ZodType; shape?: Record<string, z.core.$ZodType> };
const defOf = (schema: z.core.$ZodType) => schema._zod.def as unknown as Def;

/** The schema under optional / nullable / default wrappers. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let def = defOf(current); def.innerType && ['optional', 'nullable', 'default', 'readonly'].includes(def.type); def = defOf(current)) current = def.innerType;
  return current;
}

export function columnsOf(schema: z.core.$ZodType, prefix: readonly string[] = []): Column[] {
  const def = defOf(unwrap(schema));
  if (def.type !== 'object' || !def.shape) return [{ name: prefix.join('.'), path: prefix }];
  return Object.entries(def.shape).flatMap(([field, inner]) => columnsOf(inner, [...prefix, field]));
}

const FORMULA_START = /^[=+\-@\t\r]/;

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return FORMULA_START.test(value) ? `'${value}` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function valueAt(item: object, path: readonly string[]): unknown {
  let value: unknown = item;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The media type and file extension of each format. */
export const formatMedia: Readonly<Record<ExportFormat, { contentType: string; extension: string }>> = {
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv' },
  ndjson: { contentType: 'application/x-ndjson', extension: 'ndjson' },
};

export function rowEncoder(format: ExportFormat, rowSchema: z.core.$ZodType): RowEncoder {
  if (format === 'ndjson') {
    return { ...formatMedia.ndjson, header: () => '', row: (item) => `${JSON.stringify(item)}\n` };
  }
  const columns = columnsOf(rowSchema);
  return {
    ...formatMedia.csv,
    header: () => `${columns.map((c) => csvField(c.name)).join(',')}\r\n`,
    row: (item) => `${columns.map((c) => csvField(cellText(valueAt(item, c.path)))).join(',')}\r\n`,
  };
}
