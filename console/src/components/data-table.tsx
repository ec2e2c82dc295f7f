/**
 * A table that becomes a list on a narrow screen (`table.stack` in styles.css): each cell
 * carries its column's name in `data-label`, shown before the value once the rows are cards,
 * so nothing needs a sideways scroll at 320 px. A column without `label` spans the card (an
 * actions cell, say).
 */
import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  /** The header; also the label in front of the value when the table is a list. */
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** false: no label in list form (the cell's content says what it is, e.g. buttons). */
  label?: boolean;
}

export function DataTable<Row>({ caption, columns, rows, rowKey }: {
  /** Read by screen readers; visually hidden (the page's heading says it already). */
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    <table class="stack">
      <caption class="visually-hidden">{caption}</caption>
      <thead><tr>{columns.map((c) => <th key={c.header} scope="col">{c.header}</th>)}</tr></thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => <td key={c.header} data-label={c.label === false ? undefined : c.header}>{c.cell(row)}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
