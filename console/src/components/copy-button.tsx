/** Copies a value to the clipboard and says so (status text for screen readers). */
import { useState } from 'preact/hooks';

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => setDone(true), () => setDone(false));
        }}
      >
        {label}
      </button>
      <span role="status" class="copy-status">{done ? 'Copied' : ''}</span>
    </>
  );
}
