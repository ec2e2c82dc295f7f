/**
 * A labelled textarea with its error beside it, tied the same way as `Field` (aria-describedby,
 * aria-invalid), for values too long or multi-line for an input (SAML metadata, URI lists).
 */
import type { JSX } from 'preact';

export interface TextAreaFieldProps extends Omit<JSX.TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'label'> {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

export function TextAreaField({ id, label, error, hint, ...textarea }: TextAreaFieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      <textarea id={id} name={id} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy} {...textarea} />
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
