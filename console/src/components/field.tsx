/**
 * A labelled input with its error beside it (from a problem's `errors[].path`), tied together
 * with aria-describedby/aria-invalid so a screen reader announces the message with the field.
 */
import type { JSX } from 'preact';

export interface FieldProps extends Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'label'> {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

export function Field({ id, label, error, hint, ...input }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      <input id={id} name={id} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy} {...input} />
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
