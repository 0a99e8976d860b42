import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native `<dialog>`: the browser traps focus, Esc closes (onClose), and the page
 * behind is inert. The control marked `data-autofocus` gets focus (Enter on it confirms).
 */
export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    // showModal focuses the first control (often Cancel); focus the one the dialog names instead.
    d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => d.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={props.wide ? 'dialog wide' : 'dialog'}
      aria-label={props.title}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <h2>{props.title}</h2>
      {props.children}
    </dialog>
  );
}
