/**
 * An RFC 4180 reader for the export tests, written from the RFC and not from the writer it
 * checks: records end with CRLF, a field is quoted when it holds a comma, a quote, CR or LF,
 * and a quote inside a quoted field is doubled. Anything else (a bare quote inside an unquoted
 * field, text after a closing quote, a missing final CRLF) throws, so a sloppy writer fails.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
      continue;
    }
    throw new Error(`expected a comma or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 10))}`);
  }
  if (record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

/** The records as objects keyed by the header row's names. */
export function csvObjects(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...rest] = parseCsv(text);
  for (const [n, r] of rest.entries()) if (r.length !== header.length) throw new Error(`record ${n + 1} has ${r.length} fields, the header ${header.length}`);
  return { header, rows: rest.map((r) => Object.fromEntries(header.map((name, k) => [name, r[k]!]))) };
}
