/**
 * A modal confirmation for an action that cannot be taken back, in place of `window.confirm`
 * (which cannot say much, and which a browser may suppress). A native `<dialog>` opened with
 * `showModal`, as the step-up prompt is: the page behind is inert, focus moves to the dialog's
 * first control (Cancel, the safe choice) and Escape cancels. When it closes, the browser puts
 * focus back on the control that opened it (the dialog's own closing steps in HTML), so a
 * keyboard user continues where they were.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function ConfirmDialog({ id, open, title, children, confirmLabel, onConfirm, onCancel, danger = true }: {
  id: string;
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirm button in the danger style (the default: what asks for a confirmation takes something away). */
  danger?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    else if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`} aria-modal="true" onCancel={(event) => { event.preventDefault(); onCancel(); }}>
      <article>
        <h2 id={`${id}-title`}>{title}</h2>
        <div id={`${id}-body`}>{children}</div>
        <footer class="actions">
          <button type="button" class="secondary" autofocus onClick={onCancel}>Cancel</button>
          <button type="button" class={danger ? 'danger' : undefined} onClick={onConfirm}>{confirmLabel}</button>
        </footer>
      </article>
    </dialog>
  );
}
