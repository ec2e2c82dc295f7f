/**
 * A description from the API (a schema's `description`, written with Markdown's `code` marks)
 * as plain text: each `code` span becomes <code>, every other character is shown as written,
 * so no backtick reaches the reader and no markup is interpreted.
 */
export function PlainHint({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
