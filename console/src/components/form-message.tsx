/** The message of a form as a whole: an error (an alert, announced when it appears) or a confirmation (a status). */
export function FormMessage({ message, tone = 'error' }: { message: string | undefined; tone?: 'error' | 'info' }) {
  if (!message) return null;
  return <p class={`notice ${tone === 'error' ? 'form-error' : 'form-info'}`} role={tone === 'error' ? 'alert' : 'status'}>{message}</p>;
}
