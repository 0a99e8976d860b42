import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native `<dialog>`: the browser traps focus, Esc closes (onClose), and the page
 * behind is inert. The control marked `data-autofocus` gets focus (Enter on it confirms). Once
 * closed, the focus goes back to where it was (the table, say, so its keys go on working)
 * rather than to the page's body.
 */
export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    // showModal focuses the first control (often Cancel); focus the one the dialog names instead.
    d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      d.close();
      if (opener?.isConnected) opener.focus();
    };
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
