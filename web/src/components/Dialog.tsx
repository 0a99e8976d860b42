import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native `<dialog>`: the browser traps focus, Esc closes (onClose), and the page
 * behind is inert. The first field (or the confirm button) gets focus.
 */
export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
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
