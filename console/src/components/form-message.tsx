/** The message of a form as a whole (an alert, announced when it appears). */
export function FormMessage({ message, tone = 'error' }: { message: string | undefined; tone?: 'error' | 'info' }) {
  if (!message) return null;
  return <p class={tone === 'error' ? 'form-error' : 'form-info'} role={tone === 'error' ? 'alert' : 'status'}>{message}</p>;
}
